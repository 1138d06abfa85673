/**
 * One run of the load generator and what it measured: the contract between the runner and the
 * pinned load process it starts (`loadWorker.ts`), and the call that starts it.
 */
import { execFile } from "node:child_process"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { track } from "./Children.js"
import { pinned } from "./Pinning.js"
import type { ScenarioContext, ScenarioName } from "./Scenarios.js"

export interface LoadJob {
  readonly url: string
  readonly scenario: ScenarioName
  readonly connections: number
  readonly durationSeconds: number
  readonly context: ScenarioContext
}

export interface LoadResult {
  readonly requests: number
  /** Mean requests per second over the run. */
  readonly rps: number
  /** Latency percentiles, milliseconds. */
  readonly p50: number
  readonly p99: number
  readonly errors: number
  readonly timeouts: number
  readonly statusCounts: Readonly<Record<string, number>>
  /** CPU time of the load process over wall time: near 1, the load generator is the bottleneck. */
  readonly loadCpu: number
}

const workerScript = join(dirname(fileURLToPath(import.meta.url)), "loadWorker.js")

/** Runs `job` in a load process pinned to `core`; rejects with its output when it fails. */
export const runLoad = async (job: LoadJob, core: number): Promise<LoadResult> => {
  const directory = await mkdtemp(join(tmpdir(), "petstore-bench-load-"))
  try {
    const jobFile = join(directory, "job.json")
    await writeFile(jobFile, JSON.stringify(job))
    const [command, args] = pinned(core, process.execPath, [workerScript, jobFile])
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = execFile(
        command,
        args,
        { timeout: (job.durationSeconds + 60) * 1000, killSignal: "SIGKILL", maxBuffer: 16 * 1024 * 1024 },
        (error, out, err) =>
          error === null
            ? resolve(out)
            : reject(new Error(`the load process failed: ${error.message}\n${err}`))
      )
      track(child)
    })
    const line = stdout.trim().split("\n").pop() ?? ""
    return JSON.parse(line) as LoadResult
  } finally {
    await rm(directory, { recursive: true, force: true })
  }
}
