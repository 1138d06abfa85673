/**
 * Runs the built worker (`node dist/main.js`) as an operator runs it, configured by environment
 * variables, and cleans up whatever a test leaves behind (processes are killed, servers closed).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

export const appDirectory = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
export const repositoryRoot = resolve(appDirectory, "../..")
export const mainScript = join(appDirectory, "dist/main.js")

/** Builds the worker and everything it depends on (turbo replays unchanged packages from its cache). */
export const buildWorker = (): Promise<void> =>
  new Promise((resolvePromise, reject) => {
    execFile(
      "pnpm",
      ["turbo", "run", "build", "--filter=@petstore/worker-app...", "--output-logs=errors-only"],
      { cwd: repositoryRoot, timeout: 280_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error === null
          ? resolvePromise()
          : reject(new Error(`building the worker failed: ${error.message}\n${stdout}\n${stderr}`))
    )
  })

// ---------------------------------------------------------------------------------------------------
// Cleanup: whatever a test starts is registered here and released by `cleanUp` (in `afterEach`).

const cleanups: Array<() => Promise<void>> = []

export const onCleanUp = (release: () => Promise<void>): void => {
  cleanups.push(release)
}

/** Releases what the test started, most recent first. */
export const cleanUp = async (): Promise<void> => {
  const errors: Array<unknown> = []
  while (cleanups.length > 0) {
    const release = cleanups.pop()
    try {
      await release?.()
    } catch (error) {
      errors.push(error)
    }
  }
  if (errors.length > 0) throw new AggregateError(errors, "cleaning up after the test failed")
}

export const withTimeout = <A>(promise: Promise<A>, timeoutMs: number, what: string): Promise<A> =>
  new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no result within ${timeoutMs} ms`)), timeoutMs)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolvePromise(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      }
    )
  })

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

/** The environment of a child: this process's, minus anything that would configure the worker. */
const childEnvironment = (env: Record<string, string>): NodeJS.ProcessEnv => {
  const base: NodeJS.ProcessEnv = { ...process.env }
  for (const name of Object.keys(base)) {
    if (name.startsWith("PETSTORE_") || name === "DATABASE_URL" || name === "LOG_LEVEL") delete base[name]
  }
  return { ...base, NODE_ENV: "production", ...env }
}

// ---------------------------------------------------------------------------------------------------
// The worker process.

export interface Exited {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

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

/** The stdout lines parsed as JSON (a line that is not JSON makes this throw, naming it). */
export const logLines = (stdout: string): Array<Record<string, unknown>> =>
  stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      try {
        const parsed: unknown = JSON.parse(line)
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
          throw new Error("not an object")
        return parsed as Record<string, unknown>
      } catch {
        throw new Error(`a log line on stdout is not a JSON object: ${line}`)
      }
    })

const startedPattern = /"petstore worker (\S+) checking domains/

/** Spawns `node dist/main.js` with `env`; it is killed (SIGKILL) at clean-up if still running. */
export const startWorker = (env: Record<string, string>): WorkerProcess => {
  const child = spawn(process.execPath, [mainScript], {
    cwd: appDirectory,
    env: childEnvironment(env),
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stdout = ""
  let stderr = ""
  let exitedAlready = false
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk
  })
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk
  })
  const exitStatus = new Promise<Exited>((resolvePromise) => {
    child.once("exit", (code, signal) => {
      exitedAlready = true
      resolvePromise({ code, signal })
    })
  })
  const closed = new Promise<void>((resolvePromise) => child.once("close", () => resolvePromise()))
  const exited = closed.then(() => exitStatus)
  const output = () => `--- stdout\n${stdout}\n--- stderr\n${stderr}`
  onCleanUp(async () => {
    if (!exitedAlready) {
      child.kill("SIGKILL")
      await withTimeout(closed, 10_000, "killing the worker")
    }
  })
  const started = async (timeoutMs = 30_000) => {
    await waitUntil(
      () => startedPattern.test(stdout) || exitedAlready,
      timeoutMs,
      () => `the worker did not start\n${output()}`
    )
    const holder = startedPattern.exec(stdout)?.[1]
    if (holder === undefined) throw new Error(`the worker exited before starting\n${output()}`)
    return holder
  }
  const stop = async (signal: NodeJS.Signals = "SIGTERM", timeoutMs = 30_000) => {
    if (!exitedAlready) child.kill(signal)
    return withTimeout(exited, timeoutMs, `the worker stopping after ${signal}\n${output()}`)
  }
  return { child, stdout: () => stdout, output, hasExited: () => exitedAlready, exited, started, stop }
}

/** Totals of the worker's "domain checks" rounds (logged at debug level). */
export const roundTotals = (stdout: string) => {
  const totals = { rounds: 0, claimed: 0, completed: 0, abandoned: 0 }
  for (const line of logLines(stdout)) {
    const message = line.message
    if (!Array.isArray(message) || message[0] !== "domain checks") continue
    const round = message[1] as { claimed: number; completed: number; abandoned: number }
    totals.rounds += 1
    totals.claimed += round.claimed
    totals.completed += round.completed
    totals.abandoned += round.abandoned
  }
  return totals
}
