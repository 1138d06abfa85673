/**
 * Real DNS servers on loopback for the resolver's tests, each started on free ports when its scope
 * opens and stopped when it closes:
 * - `pebble-challtestsrv` (Debian's `pebble`): records set through its HTTP management API. It never
 *   answers NXDOMAIN (an unknown name is an empty answer) and writes CAA flags as 0.
 * - `dnsmasq` (Debian's `dnsmasq-base`): a fixed zone given on its command line, for NXDOMAIN,
 *   REFUSED and critical CAA records.
 * - a UDP socket that reads questions and never answers: a server that times out.
 * A missing program fails the tests with a message naming what installs it: never a skip.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createSocket } from "node:dgram"
import { Resolver } from "node:dns/promises"
import { accessSync, constants } from "node:fs"
import { createServer } from "node:net"
import { delimiter, join } from "node:path"
import { Context, Data, Duration, Effect, Layer, Schedule, type Scope } from "effect"

export class TestDnsServerError extends Data.TaggedError("TestDnsServerError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

const installHint = "`.ci/run` installs it (apt-get install -y --no-install-recommends pebble dnsmasq-base)"

/** The absolute path of `program` on PATH or in the sbin directories (dnsmasq lives in /usr/sbin). */
const findProgram = (program: string): Effect.Effect<string, TestDnsServerError> =>
  Effect.suspend(() => {
    const directories = [
      ...(process.env.PATH ?? "").split(delimiter),
      "/usr/local/sbin",
      "/usr/sbin",
      "/sbin"
    ].filter((directory) => directory !== "")
    for (const directory of directories) {
      const candidate = join(directory, program)
      try {
        accessSync(candidate, constants.X_OK)
        return Effect.succeed(candidate)
      } catch {
        // not here
      }
    }
    return Effect.fail(
      new TestDnsServerError({
        message: `${program} is not installed, and the DNS tests need it as a real DNS server: ${installHint}`
      })
    )
  })

/** A loopback port that is free for both UDP and TCP right now (DNS servers bind both). */
const freePort: Effect.Effect<number, TestDnsServerError> = Effect.tryPromise({
  try: async () => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const udp = createSocket("udp4")
      const port = await new Promise<number>((resolve, reject) => {
        udp.once("error", reject)
        udp.bind(0, "127.0.0.1", () => resolve(udp.address().port))
      })
      const tcpFree = await new Promise<boolean>((resolve) => {
        const tcp = createServer()
        tcp.once("error", () => resolve(false))
        tcp.listen(port, "127.0.0.1", () => tcp.close(() => resolve(true)))
      })
      await new Promise<void>((resolve) => udp.close(() => resolve()))
      if (tcpFree) return port
    }
    throw new Error("no port free for both UDP and TCP after 20 attempts")
  },
  catch: (cause) => new TestDnsServerError({ message: `cannot find a free port: ${String(cause)}`, cause })
})

interface Running {
  readonly child: ChildProcess
  /** Everything the process printed so far. */
  readonly output: () => string
  /** Set once the process has exited (or could not start). */
  readonly exited: () => string | undefined
}

/** Spawns `command`, kills it when the scope closes. */
const spawnScoped = (
  command: string,
  args: ReadonlyArray<string>
): Effect.Effect<Running, TestDnsServerError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.try({
      try: (): Running => {
        const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] })
        let output = ""
        let exited: string | undefined
        child.stdout?.on("data", (chunk: Buffer) => {
          output += chunk.toString()
        })
        child.stderr?.on("data", (chunk: Buffer) => {
          output += chunk.toString()
        })
        child.on("error", (error) => {
          exited = `could not run: ${error.message}`
        })
        child.on("exit", (code, signal) => {
          exited = `exited with ${code === null ? `signal ${signal}` : `code ${code}`}`
        })
        return { child, output: () => output, exited: () => exited }
      },
      catch: (cause) =>
        new TestDnsServerError({ message: `cannot start ${command}: ${String(cause)}`, cause })
    }),
    ({ child, exited }) =>
      Effect.async<void>((resume) => {
        if (exited() !== undefined || child.exitCode !== null) return resume(Effect.void)
        const timer = setTimeout(() => child.kill("SIGKILL"), 3_000)
        child.once("exit", () => {
          clearTimeout(timer)
          resume(Effect.void)
        })
        child.kill("SIGTERM")
      })
  )

/** Succeeds once `probe` does, failing with the process's output if it exits or is still not ready after 10 s. */
const awaitReady = (
  name: string,
  running: Running,
  probe: Effect.Effect<void, unknown>
): Effect.Effect<void, TestDnsServerError> =>
  Effect.suspend(
    (): Effect.Effect<void, TestDnsServerError | { readonly _tag: "NotReady"; readonly cause: unknown }> => {
      const exited = running.exited()
      // The process ending is final; a probe that fails (a refused connection) only means "not yet".
      return exited === undefined
        ? Effect.mapError(probe, (cause) => ({ _tag: "NotReady" as const, cause }))
        : Effect.fail(new TestDnsServerError({ message: `${name} ${exited}: ${running.output().trim()}` }))
    }
  ).pipe(
    Effect.retry({
      schedule: Schedule.spaced(Duration.millis(50)).pipe(Schedule.upTo(Duration.seconds(10))),
      while: (error) => !(error instanceof TestDnsServerError)
    }),
    Effect.mapError((error) =>
      error instanceof TestDnsServerError
        ? error
        : new TestDnsServerError({
            message: `${name} did not become ready in 10 s: ${String(error.cause)}; output: ${running.output().trim()}`,
            cause: error.cause
          })
    )
  )

/** Ready when the DNS server answers anything at all (an error code from the server counts as an answer). */
const dnsAnswers = (server: string): Effect.Effect<void, unknown> =>
  Effect.tryPromise(async () => {
    const resolver = new Resolver({ timeout: 200, tries: 1 })
    resolver.setServers([server])
    try {
      await resolver.resolve4("readiness.probe.invalid")
    } catch (error) {
      const code = (error as { code?: unknown }).code
      if (code === "ETIMEOUT" || code === "ECONNREFUSED") throw error
    }
  })

/** Starts a server on fresh ports; a start that fails (a port taken meanwhile) is retried twice. */
const startWithRetry = <A>(start: Effect.Effect<A, TestDnsServerError, Scope.Scope>) =>
  start.pipe(Effect.retry({ times: 2, while: (error) => !error.message.includes("is not installed") }))

// ---------------------------------------------------------------------------------------------
// pebble-challtestsrv

export interface CaaPolicy {
  readonly tag: string
  readonly value: string
}

export class Challtestsrv extends Context.Tag("test/Challtestsrv")<
  Challtestsrv,
  {
    /** The DNS server, as `127.0.0.1:<port>`. */
    readonly server: string
    readonly addA: (host: string, addresses: ReadonlyArray<string>) => Effect.Effect<void, TestDnsServerError>
    readonly addAaaa: (
      host: string,
      addresses: ReadonlyArray<string>
    ) => Effect.Effect<void, TestDnsServerError>
    readonly setCname: (host: string, target: string) => Effect.Effect<void, TestDnsServerError>
    readonly addCaa: (
      host: string,
      policies: ReadonlyArray<CaaPolicy>
    ) => Effect.Effect<void, TestDnsServerError>
    readonly setTxt: (host: string, value: string) => Effect.Effect<void, TestDnsServerError>
    readonly setServfail: (host: string) => Effect.Effect<void, TestDnsServerError>
    /** Removes the A records of `host` (and its AAAA records, CNAME and SERVFAIL with the others). */
    readonly clearA: (host: string) => Effect.Effect<void, TestDnsServerError>
    readonly clearAaaa: (host: string) => Effect.Effect<void, TestDnsServerError>
    readonly clearCname: (host: string) => Effect.Effect<void, TestDnsServerError>
    readonly clearServfail: (host: string) => Effect.Effect<void, TestDnsServerError>
  }
>() {}

const fqdn = (host: string): string => (host.endsWith(".") ? host : `${host}.`)

const startChalltestsrv = Effect.gen(function* () {
  const program = yield* findProgram("pebble-challtestsrv")
  const dnsPort = yield* freePort
  const managementPort = yield* freePort
  const server = `127.0.0.1:${dnsPort}`
  const management = `http://127.0.0.1:${managementPort}`
  const running = yield* spawnScoped(program, [
    "-dns01",
    server,
    "-management",
    `127.0.0.1:${managementPort}`,
    // No challenge servers, and no default address for names without records.
    "-http01",
    "",
    "-https01",
    "",
    "-tlsalpn01",
    "",
    "-defaultIPv4",
    "",
    "-defaultIPv6",
    ""
  ])

  const post = (path: string, body: object): Effect.Effect<void, TestDnsServerError> =>
    Effect.tryPromise({
      try: async () => {
        const response = await fetch(`${management}${path}`, { method: "POST", body: JSON.stringify(body) })
        if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`)
      },
      catch: (cause) =>
        new TestDnsServerError({
          message: `challtestsrv ${path} ${JSON.stringify(body)}: ${String(cause)}`,
          cause
        })
    })

  yield* awaitReady(
    "pebble-challtestsrv",
    running,
    Effect.zipRight(post("/clear-a", { host: "readiness.probe.invalid." }), dnsAnswers(server))
  )

  return Challtestsrv.of({
    server,
    addA: (host, addresses) => post("/add-a", { host: fqdn(host), addresses }),
    addAaaa: (host, addresses) => post("/add-aaaa", { host: fqdn(host), addresses }),
    setCname: (host, target) => post("/set-cname", { host: fqdn(host), target }),
    addCaa: (host, policies) => post("/add-caa", { host: fqdn(host), policies }),
    setTxt: (host, value) => post("/set-txt", { host: fqdn(host), value }),
    setServfail: (host) => post("/set-servfail", { host: fqdn(host) }),
    clearA: (host) => post("/clear-a", { host: fqdn(host) }),
    clearAaaa: (host) => post("/clear-aaaa", { host: fqdn(host) }),
    clearCname: (host) => post("/clear-cname", { host: fqdn(host) }),
    clearServfail: (host) => post("/clear-servfail", { host: fqdn(host) })
  })
})

/** pebble-challtestsrv on free loopback ports, for the scope of the layer. */
export const challtestsrvLayer: Layer.Layer<Challtestsrv, TestDnsServerError> = Layer.scoped(
  Challtestsrv,
  startWithRetry(startChalltestsrv)
)

// ---------------------------------------------------------------------------------------------
// dnsmasq

/** A CAA record as dnsmasq's `--dns-rr` wants it: flags, tag length, tag, value, in hex. */
const caaHex = (flags: number, tag: string, value: string): string =>
  Buffer.concat([Buffer.from([flags, tag.length]), Buffer.from(tag), Buffer.from(value)]).toString("hex")

/** The zone dnsmasq serves: everything under `local.test` is known to it (others are refused). */
export const dnsmasqZone = {
  /** Local domain: a name under it without records is NXDOMAIN. */
  domain: "local.test",
  /** Has an A record only. */
  host: "host.local.test",
  hostAddress: "192.0.2.80",
  /** Has a critical CAA record with an unknown tag and a non-critical `issue`. */
  criticalCaa: "critical.local.test"
} as const

export class Dnsmasq extends Context.Tag("test/Dnsmasq")<Dnsmasq, { readonly server: string }>() {}

const startDnsmasq = Effect.gen(function* () {
  const program = yield* findProgram("dnsmasq")
  const port = yield* freePort
  const server = `127.0.0.1:${port}`
  const running = yield* spawnScoped(program, [
    "--keep-in-foreground",
    "--log-facility=-",
    "--conf-file=/dev/null",
    "--pid-file=",
    "--no-resolv",
    "--no-hosts",
    "--no-poll",
    "--bind-interfaces",
    "--listen-address=127.0.0.1",
    `--port=${port}`,
    ...(process.getuid?.() === 0 ? ["--user=root"] : []),
    `--local=/${dnsmasqZone.domain}/`,
    `--host-record=${dnsmasqZone.host},${dnsmasqZone.hostAddress}`,
    `--dns-rr=${dnsmasqZone.criticalCaa},257,${caaHex(0x80, "tbs", "Unknown")}`,
    `--dns-rr=${dnsmasqZone.criticalCaa},257,${caaHex(0, "issue", "ca.example.net")}`
  ])
  yield* awaitReady("dnsmasq", running, dnsAnswers(server))
  return Dnsmasq.of({ server })
})

/** dnsmasq on a free loopback port, for the scope of the layer. */
export const dnsmasqLayer: Layer.Layer<Dnsmasq, TestDnsServerError> = Layer.scoped(
  Dnsmasq,
  startWithRetry(startDnsmasq)
)

// ---------------------------------------------------------------------------------------------
// A server that never answers

export class SilentServer extends Context.Tag("test/SilentServer")<
  SilentServer,
  { readonly server: string }
>() {}

/** A UDP socket on loopback that reads every question and answers none. */
export const silentServerLayer: Layer.Layer<SilentServer, TestDnsServerError> = Layer.scoped(
  SilentServer,
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () =>
        new Promise<ReturnType<typeof createSocket>>((resolve, reject) => {
          const socket = createSocket("udp4")
          socket.once("error", reject)
          socket.on("message", () => {
            // read and ignored: this server times out
          })
          socket.bind(0, "127.0.0.1", () => resolve(socket))
        }),
      catch: (cause) =>
        new TestDnsServerError({ message: `cannot bind a UDP socket: ${String(cause)}`, cause })
    }),
    (socket) =>
      Effect.async<void>((resume) => {
        socket.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map((socket) => SilentServer.of({ server: `127.0.0.1:${socket.address().port}` })))
)
