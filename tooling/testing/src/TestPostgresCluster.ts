/**
 * A PostgreSQL server of the test's own on a loopback port it chooses, which the test may stop, start
 * again, pause (every process frozen, connections left open: a hung server) and resume; never the
 * shared server. A `postgres:16-alpine` container on the host's network when a container runtime
 * answers (Docker's stop, start, pause, unpause), else a cluster made with the machine's `initdb` and
 * run by `pg_ctl` (Debian keeps them in `/usr/lib/postgresql/<version>/bin`), as the `postgres` user
 * when the tests run as root (PostgreSQL refuses root). Everything is removed when the scope closes.
 */
import { execFile } from "node:child_process"
import { readdirSync } from "node:fs"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { Duration, Effect, type Scope } from "effect"
import pg from "pg"
import type { ContainerRuntimeClient } from "testcontainers"
import { LoopbackServerError, type Running } from "./LoopbackServer.js"
import * as TestServerProcess from "./TestServerProcess.js"
import * as TestServerSource from "./TestServerSource.js"

/** Debian keeps each version's server programs in its own directory, not on PATH: newest first. */
const postgresBinDirectories = (): ReadonlyArray<string> => {
  try {
    return readdirSync("/usr/lib/postgresql")
      .sort()
      .reverse()
      .map((version) => join("/usr/lib/postgresql", version, "bin"))
  } catch {
    return []
  }
}

export const server: TestServerSource.TestServer = {
  program: "pg_ctl",
  install: "Debian's `postgresql` package",
  elsewhere: postgresBinDirectories()
}

export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the server is the test's, so its default database is. */
  readonly url: string
  /** Starts it again after `stop`, once it accepts connections. */
  readonly start: Effect.Effect<void, LoopbackServerError>
  /** A fast shutdown: open connections are cut, as when a database server goes away. */
  readonly stop: Effect.Effect<void, LoopbackServerError>
  /** Freezes every process of the server: connections stay open and nothing answers. */
  readonly pause: Effect.Effect<void, LoopbackServerError>
  /** Lets a paused server run again. */
  readonly resume: Effect.Effect<void, LoopbackServerError>
}

const run = promisify(execFile)

const failure = (action: string) => (cause: unknown) =>
  new LoopbackServerError({
    reason: "NotStarted",
    message: `PostgreSQL of the test's own: ${action} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    cause
  })

const attempt = (
  action: string,
  operation: () => Promise<unknown>
): Effect.Effect<void, LoopbackServerError> =>
  Effect.asVoid(Effect.tryPromise({ try: operation, catch: failure(action) }))

/** Ready when `select 1` answers. */
const answers = (url: string): Effect.Effect<void, unknown> =>
  Effect.tryPromise(async () => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 })
    client.on("error", () => undefined)
    try {
      await client.connect()
      await client.query("select 1")
    } finally {
      await client.end().catch(() => undefined)
    }
  })

const localCluster = (pgCtl: string, port: number, probes: TestServerSource.Probes) =>
  Effect.gen(function* () {
    const initdb = yield* TestServerSource.locate(
      { ...server, program: "initdb", elsewhere: [dirname(pgCtl)] },
      probes
    )
    const asRoot = process.getuid?.() === 0
    const command = (path: string, args: ReadonlyArray<string>) =>
      asRoot ? run("runuser", ["-u", "postgres", "--", path, ...args]) : run(path, [...args])
    const directory = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => mkdtemp(join(tmpdir(), "petstore-cluster-")),
        catch: failure("mkdtemp")
      }),
      (path) => Effect.promise(() => rm(path, { recursive: true, force: true }))
    )
    if (asRoot) yield* attempt("chown", () => run("chown", ["postgres", directory]))
    const data = join(directory, "data")
    yield* attempt("initdb", () =>
      command(initdb, ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"])
    )
    const options = `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off`
    const start = attempt("pg_ctl start", () =>
      command(pgCtl, ["-D", data, "-o", options, "-l", join(directory, "log"), "-w", "start"])
    )
    const stop = attempt("pg_ctl stop", () => command(pgCtl, ["-D", data, "-m", "fast", "-w", "stop"]))
    /** The postmaster (first line of `postmaster.pid`) and its children: every process of the cluster. */
    const processes = async (): Promise<ReadonlyArray<string>> => {
      const postmaster = (await readFile(join(data, "postmaster.pid"), "utf8")).split("\n")[0]?.trim() ?? ""
      const children = await new Promise<string>((resolve) =>
        execFile("pgrep", ["-P", postmaster], (_error, stdout) => resolve(stdout))
      )
      return [postmaster, ...children.split("\n").filter((pid) => pid.trim() !== "")]
    }
    const signal = (name: "SIGSTOP" | "SIGCONT") =>
      attempt(name, async () => {
        for (const pid of await processes()) process.kill(Number(pid), name)
      })
    // Resumed, then stopped, before its directory goes.
    yield* Effect.acquireRelease(start, () =>
      Effect.andThen(Effect.ignore(signal("SIGCONT")), Effect.ignore(stop))
    )
    return { start, stop, pause: signal("SIGSTOP"), resume: signal("SIGCONT") }
  })

/** A container as the runtime's client handles it (stop, start, pause, unpause). */
type Container = ReturnType<ContainerRuntimeClient["container"]["getById"]>

/** The official image: its entrypoint makes the cluster at the first start and keeps it across stops. */
const containerProgram: TestServerProcess.ServerProgram = {
  ...server,
  image: { name: "postgres:16-alpine", entrypoint: "docker-entrypoint.sh" }
}

const containerCluster = (port: number, url: string) =>
  Effect.gen(function* () {
    const invocation: TestServerProcess.Invocation = {
      args: ["postgres", "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"],
      environment: { POSTGRES_HOST_AUTH_METHOD: "trust" },
      ready: answers(url),
      readyWithin: Duration.seconds(60)
    }
    const { running, id } = yield* TestServerProcess.startContainer(containerProgram, invocation)
    const ready = (output: Running) =>
      TestServerProcess.awaitServer(containerProgram, { _tag: "Container" }, output, invocation)
    yield* ready(running)
    /** Always the same container: stopped and started again, its data stays as a cluster's does. */
    const docker = (
      action: string,
      operation: (container: Container, client: ContainerRuntimeClient) => Promise<unknown>
    ) =>
      attempt(action, async () => {
        const { getContainerRuntimeClient } = await import("testcontainers")
        const client = await getContainerRuntimeClient()
        await operation(client.container.getById(id), client)
      })
    const resume = docker("docker unpause", (container) => container.unpause())
    // Runs before the container is removed: a paused container is let run first.
    yield* Effect.addFinalizer(() => Effect.ignore(resume))
    return {
      start: Effect.andThen(
        docker("docker start", (container, client) => client.container.start(container)),
        // The log stream ended at the stop: after a start only the probe tells.
        ready({ output: running.output, exited: () => undefined })
      ),
      stop: docker("docker stop", (container, client) => client.container.stop(container, { timeout: 10 })),
      pause: docker("docker pause", (container) => container.pause()),
      resume
    }
  })

/** A PostgreSQL of the scope's own on 127.0.0.1:`port`, accepting connections. */
export const make = (
  port: number,
  probes: TestServerSource.Probes = TestServerSource.liveProbes
): Effect.Effect<PostgresCluster, LoopbackServerError, Scope.Scope> =>
  Effect.gen(function* () {
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`
    const source = yield* TestServerSource.choose(server, probes)
    const controls =
      source._tag === "Container"
        ? yield* containerCluster(port, url)
        : yield* localCluster(source.path, port, probes)
    return { url, ...controls }
  })
