/**
 * Real servers on loopback for adapters' tests (DNS servers, an ACME CA), as processes tied to a
 * scope: finding the program, a free port, spawning it (killed when the scope closes) and waiting
 * until it answers. A missing program fails with a message saying what installs it: never a skip.
 */
import { spawn } from "node:child_process"
import { createSocket } from "node:dgram"
import { accessSync, constants } from "node:fs"
import { createServer } from "node:net"
import { delimiter, join } from "node:path"
import { Data, Duration, Effect, Option, Schedule, type Scope } from "effect"

export class LoopbackServerError extends Data.TaggedError("LoopbackServerError")<{
  readonly reason: "NotInstalled" | "NoFreePort" | "NotStarted" | "NotReady"
  readonly message: string
  readonly cause?: unknown
}> {}

/**
 * The absolute path of `program` on PATH, in the sbin directories (dnsmasq lives in /usr/sbin) or
 * in `elsewhere` (PostgreSQL's server programs live in /usr/lib/postgresql/<version>/bin), if any.
 */
export const locateProgram = (
  program: string,
  elsewhere: ReadonlyArray<string> = []
): Effect.Effect<Option.Option<string>> =>
  Effect.sync(() => {
    const directories = [
      ...(process.env.PATH ?? "").split(delimiter),
      "/usr/local/sbin",
      "/usr/sbin",
      "/sbin",
      ...elsewhere
    ].filter((directory) => directory !== "")
    for (const directory of directories) {
      const candidate = join(directory, program)
      try {
        accessSync(candidate, constants.X_OK)
        return Option.some(candidate)
      } catch {
        // not here
      }
    }
    return Option.none()
  })

/** The path `locateProgram` found, or a `NotInstalled` failure saying `message`. */
export const installedOr =
  (message: string) =>
  (path: Option.Option<string>): Effect.Effect<string, LoopbackServerError> =>
    Option.match(path, {
      onSome: Effect.succeed,
      onNone: () => Effect.fail(new LoopbackServerError({ reason: "NotInstalled", message }))
    })

/**
 * `locateProgram`, failing when it is missing; `hint` ends the message then: who needs it and what
 * installs it.
 */
export const findProgram = (
  program: string,
  hint: string,
  elsewhere: ReadonlyArray<string> = []
): Effect.Effect<string, LoopbackServerError> =>
  Effect.flatMap(locateProgram(program, elsewhere), installedOr(`${program} is not installed, and ${hint}`))

/**
 * Where `freePort` looks: below Linux's ephemeral range (32768–60999), which the kernel hands to
 * every server started on port 0 and every outgoing connection. A port from that range, free when
 * checked, could be given to a parallel test's server before the test's own process bound it (CI
 * once saw a test reach another test's API that way).
 */
const fixedPorts = { from: 20_000, to: 32_768 }

/** Whether `port` can be bound on loopback over UDP and TCP now. */
const bindable = async (port: number): Promise<boolean> => {
  const udp = createSocket("udp4")
  const udpFree = await new Promise<boolean>((resolve) => {
    udp.once("error", () => resolve(false))
    udp.bind(port, "127.0.0.1", () => resolve(true))
  })
  if (udpFree) await new Promise<void>((resolve) => udp.close(() => resolve()))
  if (!udpFree) return false
  return new Promise<boolean>((resolve) => {
    const tcp = createServer()
    tcp.once("error", () => resolve(false))
    tcp.listen(port, "127.0.0.1", () => tcp.close(() => resolve(true)))
  })
}

/**
 * A loopback port that is free for both UDP and TCP right now (DNS servers bind both), outside the
 * range the kernel gives out by itself, so that it stays free until the test's server binds it.
 */
export const freePort: Effect.Effect<number, LoopbackServerError> = Effect.tryPromise({
  try: async () => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const port = fixedPorts.from + Math.floor(Math.random() * (fixedPorts.to - fixedPorts.from))
      if (await bindable(port)) return port
    }
    throw new Error(
      `no port from ${fixedPorts.from} to ${fixedPorts.to - 1} free for both UDP and TCP after 50 attempts`
    )
  },
  catch: (cause) =>
    new LoopbackServerError({
      reason: "NoFreePort",
      message: `cannot find a free port: ${String(cause)}`,
      cause
    })
})

/** A server process, or a container standing in for it. */
export interface Running {
  /** Everything it printed so far. */
  readonly output: () => string
  /** Set once it has exited (or could not start). */
  readonly exited: () => string | undefined
}

/** Spawns `command` (this process's environment plus `env`), kills it when the scope closes. */
export const spawnScoped = (
  command: string,
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>> = {}
): Effect.Effect<Running, LoopbackServerError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.try({
      try: () => {
        const child = spawn(command, args, {
          stdio: ["ignore", "pipe", "pipe"],
          env: { ...process.env, ...env }
        })
        let output = ""
        let exited: string | undefined
        const collect = (chunk: Buffer) => {
          output += chunk.toString()
        }
        child.stdout?.on("data", collect)
        child.stderr?.on("data", collect)
        child.on("error", (error) => {
          exited = `could not run: ${error.message}`
        })
        child.on("exit", (code, signal) => {
          exited = `exited with ${code === null ? `signal ${signal}` : `code ${code}`}`
        })
        const running: Running = { output: () => output, exited: () => exited }
        return { child, running }
      },
      catch: (cause) =>
        new LoopbackServerError({
          reason: "NotStarted",
          message: `cannot start ${command}: ${String(cause)}`,
          cause
        })
    }),
    ({ child, running }) =>
      Effect.callback<void>((resume) => {
        if (running.exited() !== undefined || child.exitCode !== null) return resume(Effect.void)
        const timer = setTimeout(() => child.kill("SIGKILL"), 3_000)
        child.once("exit", () => {
          clearTimeout(timer)
          resume(Effect.void)
        })
        child.kill("SIGTERM")
      })
  ).pipe(Effect.map(({ running }) => running))

/**
 * Succeeds once `probe` does, failing with the process's output if it exits or is still not ready
 * after `timeout` (10 s by default). A failing probe (a refused connection) only means "not yet".
 */
export const awaitReady = (
  name: string,
  running: Running,
  probe: Effect.Effect<void, unknown>,
  timeout: Duration.Input = Duration.seconds(10)
): Effect.Effect<void, LoopbackServerError> => {
  const limit = Duration.fromInputUnsafe(timeout)
  return Effect.suspend(
    (): Effect.Effect<void, LoopbackServerError | { readonly _tag: "NotYet"; readonly cause: unknown }> => {
      const exited = running.exited()
      return exited === undefined
        ? Effect.mapError(probe, (cause) => ({ _tag: "NotYet" as const, cause }))
        : Effect.fail(
            new LoopbackServerError({
              reason: "NotStarted",
              message: `${name} ${exited}: ${running.output().trim()}`
            })
          )
    }
  ).pipe(
    Effect.retry({
      schedule: Schedule.spaced(Duration.millis(50)).pipe(Schedule.upTo({ duration: limit })),
      while: (error) => error._tag === "NotYet"
    }),
    Effect.catchTag("NotYet", (error) =>
      Effect.fail(
        new LoopbackServerError({
          reason: "NotReady",
          message: `${name} did not become ready in ${Duration.format(limit)}: ${String(error.cause)}; output: ${running.output().trim()}`,
          cause: error.cause
        })
      )
    )
  )
}

/**
 * Starts a server on fresh ports; a start that fails (a port taken meanwhile) is retried twice, a
 * missing program is not.
 */
export const startWithRetry = <A, E>(
  start: Effect.Effect<A, E | LoopbackServerError, Scope.Scope>
): Effect.Effect<A, E | LoopbackServerError, Scope.Scope> =>
  Effect.retry(start, {
    times: 2,
    while: (error) => !(error instanceof LoopbackServerError && error.reason === "NotInstalled")
  })
