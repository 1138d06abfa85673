/**
 * Support for tests that run one of the apps as a real process: spawning a built script with a clean
 * environment, collecting its output, waiting with a bound, and reading its JSON log lines.
 */
import { type ChildProcess, spawn } from "node:child_process"

export interface Exited {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

/** `promise`, or a rejection naming `what` after `timeoutMs`. */
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

/**
 * The environment of a child: this process's, minus everything that would configure the service
 * (`PETSTORE_*`, `DATABASE_URL`, `LOG_LEVEL`, `PORT`), plus `env`.
 */
export const childEnvironment = (env: Record<string, string>): NodeJS.ProcessEnv => {
  const base: NodeJS.ProcessEnv = { ...process.env }
  for (const name of Object.keys(base)) {
    if (name.startsWith("PETSTORE_") || name === "DATABASE_URL" || name === "LOG_LEVEL" || name === "PORT") {
      delete base[name]
    }
  }
  // The edge's fixed default ports would collide between servers started side by side.
  return {
    ...base,
    NODE_ENV: "production",
    PETSTORE_EDGE_HTTP_PORT: "0",
    PETSTORE_EDGE_HTTPS_PORT: "0",
    ...env
  }
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

export interface NodeProcess {
  readonly child: ChildProcess
  readonly stdout: () => string
  readonly stderr: () => string
  /** Both streams, labelled, for failure messages. */
  readonly output: () => string
  readonly hasExited: () => boolean
  /** The exit status, once the streams are drained too. */
  readonly exited: Promise<Exited>
  /** SIGKILLs the process if it still runs and waits for it (what a test's clean-up calls). */
  readonly kill: () => Promise<void>
}

/**
 * Runs `node <script>` in `cwd` with `childEnvironment(env)` (and `nodeArgs` before the script, such
 * as `--import`), collecting its output.
 */
export const spawnNode = (
  script: string,
  options: {
    readonly cwd: string
    readonly env: Record<string, string>
    readonly nodeArgs?: ReadonlyArray<string>
  }
) => {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), script], {
    cwd: options.cwd,
    env: childEnvironment(options.env),
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
  // Let the streams drain before anyone reads the output of an exited process.
  const closed = new Promise<void>((resolvePromise) => child.once("close", () => resolvePromise()))
  const exited = closed.then(() => exitStatus)
  const spawned: NodeProcess = {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    output: () => `--- stdout\n${stdout}\n--- stderr\n${stderr}`,
    hasExited: () => exitedAlready,
    exited,
    kill: async () => {
      if (exitedAlready) return
      child.kill("SIGKILL")
      await withTimeout(closed, 10_000, `killing ${script}`)
    }
  }
  return spawned
}

/**
 * What a test started and must release afterwards (processes, databases, directories), released most
 * recent first by `releaseAll` (in `afterEach`); every release runs even when one fails.
 */
export const makeCleanups = () => {
  const releases: Array<() => Promise<void>> = []
  const register = (release: () => Promise<void>): void => {
    releases.push(release)
  }
  const releaseAll = async (): Promise<void> => {
    const errors: Array<unknown> = []
    while (releases.length > 0) {
      const release = releases.pop()
      try {
        await release?.()
      } catch (error) {
        errors.push(error)
      }
    }
    if (errors.length > 0) throw new AggregateError(errors, "cleaning up after the test failed")
  }
  return { register, releaseAll }
}
