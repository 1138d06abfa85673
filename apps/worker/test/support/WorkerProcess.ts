/**
 * Runs the built worker (`node dist/main.js`) as an operator runs it, configured by environment
 * variables, and cleans up whatever a test leaves behind (processes are killed, servers closed).
 */
import type { ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { NodeProcess } from "@petstore/testing"

const { spawnNode } = NodeProcess
const { logLines, withTimeout } = NodeProcess
type Exited = NodeProcess.Exited

const appDirectory = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
const mainScript = join(appDirectory, "dist/main.js")

// ---------------------------------------------------------------------------------------------------
// Cleanup: whatever a test starts is registered here and released by `cleanUp` (in `afterEach`).

const cleanups = NodeProcess.makeCleanups()

export const onCleanUp = cleanups.register

/** Releases what the test started, most recent first. */
export const cleanUp = cleanups.releaseAll

/** Polls `condition` every 50 ms until it holds; rejects with `describe()` after `timeoutMs`. */
export const waitUntil = async (
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  describe: () => string
): Promise<void> => {
  const started = Date.now()
  for (;;) {
    if (await condition()) return
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms: ${describe()}`)
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 50))
  }
}

// ---------------------------------------------------------------------------------------------------
// The worker process.

export interface WorkerProcess {
  readonly child: ChildProcess
  readonly stdout: () => string
  readonly output: () => string
  readonly hasExited: () => boolean
  /** Resolves once the streams are closed after the exit. */
  readonly exited: Promise<Exited>
  /** Resolves with the worker's lease holder id once it logs that it is checking domains. */
  readonly started: (timeoutMs?: number) => Promise<string>
  /** Sends `signal` (SIGTERM by default) and waits for the exit (rejects after `timeoutMs`). */
  readonly stop: (signal?: NodeJS.Signals, timeoutMs?: number) => Promise<Exited>
}

const startedPattern = /"petstore worker (\S+) checking domains/

/** Spawns `node dist/main.js` with `env`; it is killed (SIGKILL) at clean-up if still running. */
export const startWorker = (env: Record<string, string>): WorkerProcess => {
  // Its own data directory (generated secret, local CA), never the checkout's.
  const dataDir = mkdtempSync(join(tmpdir(), "petstore-worker-test-"))
  onCleanUp(async () => rmSync(dataDir, { recursive: true, force: true }))
  const worker = spawnNode(mainScript, { cwd: appDirectory, env: { PETSTORE_DATA_DIR: dataDir, ...env } })
  onCleanUp(worker.kill)
  const started = async (timeoutMs = 30_000) => {
    await waitUntil(
      () => startedPattern.test(worker.stdout()) || worker.hasExited(),
      timeoutMs,
      () => `the worker did not start\n${worker.output()}`
    )
    const holder = startedPattern.exec(worker.stdout())?.[1]
    if (holder === undefined) throw new Error(`the worker exited before starting\n${worker.output()}`)
    return holder
  }
  const stop = async (signal: NodeJS.Signals = "SIGTERM", timeoutMs = 30_000) => {
    if (!worker.hasExited()) worker.child.kill(signal)
    return withTimeout(worker.exited, timeoutMs, `the worker stopping after ${signal}\n${worker.output()}`)
  }
  return { ...worker, started, stop }
}

/**
 * Totals of the worker's rounds of `work` (logged at debug level when they claimed anything): "domain
 * checks", or "claim rechecks" (whose rounds report no `abandoned`: it stays 0 for them).
 */
export const roundTotals = (stdout: string, work: "domain checks" | "claim rechecks" = "domain checks") => {
  const totals = { rounds: 0, claimed: 0, completed: 0, abandoned: 0 }
  for (const line of logLines(stdout)) {
    const message = line.message
    if (!Array.isArray(message) || message[0] !== work) continue
    const round = message[1] as { claimed: number; completed: number; abandoned?: number }
    totals.rounds += 1
    totals.claimed += round.claimed
    totals.completed += round.completed
    totals.abandoned += round.abandoned ?? 0
  }
  return totals
}
