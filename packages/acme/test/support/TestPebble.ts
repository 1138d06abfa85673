/**
 * A real ACME CA on loopback for the adapter's tests: Debian's `pebble`, resolving names through
 * `pebble-challtestsrv` (from `@petstore/dns/testing`), with its HTTPS listener on a certificate from a
 * throwaway CA made with `openssl` (trusted by acme-client's axios instance: no TLS check is turned off).
 * Pebble validates HTTP-01 on `httpPort`, where a node:http server answers
 * `/.well-known/acme-challenge/<token>` from an in-memory Http01ChallengeStore.
 * Everything starts on free ports when the layer's scope opens and stops when it closes.
 * A missing program fails the tests with a message naming `.ci/run`: never a skip.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer as createHttpServer, type Server } from "node:http"
import { Agent, get as httpsGet } from "node:https"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { delimiter, join } from "node:path"
import { Challtestsrv, challtestsrvLayer, type TestDnsServerError } from "@petstore/dns/testing"
import * as acme from "acme-client"
import { Context, Data, Duration, Effect, Layer, Schedule, type Scope } from "effect"
import * as Http01ChallengeStore from "../../src/Http01ChallengeStore.js"

export class TestPebbleError extends Data.TaggedError("TestPebbleError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

const installHint = "`.ci/run` installs it (apt-get install -y --no-install-recommends pebble openssl)"

const findProgram = (program: string): Effect.Effect<string, TestPebbleError> =>
  Effect.suspend(() => {
    for (const directory of [...(process.env.PATH ?? "").split(delimiter), "/usr/sbin", "/sbin"]) {
      if (directory === "") continue
      const candidate = join(directory, program)
      try {
        accessSync(candidate, constants.X_OK)
        return Effect.succeed(candidate)
      } catch {
        // not here
      }
    }
    return Effect.fail(
      new TestPebbleError({
        message: `${program} is not installed, and the ACME tests need it for a real CA: ${installHint}`
      })
    )
  })

const freeTcpPort: Effect.Effect<number, TestPebbleError> = Effect.tryPromise({
  try: () =>
    new Promise<number>((resolve, reject) => {
      const server = createServer()
      server.once("error", reject)
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        const port = typeof address === "object" && address !== null ? address.port : 0
        server.close(() => resolve(port))
      })
    }),
  catch: (cause) => new TestPebbleError({ message: `cannot find a free port: ${String(cause)}`, cause })
})

/** A scratch directory, removed when the scope closes. */
const scratchDirectory = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "test-pebble-"))),
  (directory) => Effect.sync(() => rmSync(directory, { recursive: true, force: true }))
)

/** A CA and a certificate for `localhost`/`127.0.0.1` signed by it, for Pebble's HTTPS listener. */
const makeTlsFiles = (openssl: string, directory: string) =>
  Effect.try({
    try: () => {
      const run = (args: ReadonlyArray<string>) =>
        execFileSync(openssl, args, { cwd: directory, stdio: ["ignore", "pipe", "pipe"] })
      const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
      run([
        "req",
        "-x509",
        ...ec,
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=Test Pebble CA"
      ])
      run(["req", ...ec, "-keyout", "key.pem", "-out", "leaf.csr", "-subj", "/CN=localhost"])
      writeFileSync(join(directory, "leaf.ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1\n")
      run([
        "x509",
        "-req",
        "-in",
        "leaf.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "cert.pem",
        "-days",
        "2",
        "-extfile",
        "leaf.ext"
      ])
      return {
        caPem: readFileSync(join(directory, "ca.pem"), "utf8"),
        certificate: join(directory, "cert.pem"),
        privateKey: join(directory, "key.pem")
      }
    },
    catch: (cause) =>
      new TestPebbleError({ message: `openssl could not make Pebble's TLS files: ${String(cause)}`, cause })
  })

interface Running {
  readonly output: () => string
  readonly exited: () => string | undefined
}

const spawnScoped = (
  command: string,
  args: ReadonlyArray<string>,
  env: Record<string, string>
): Effect.Effect<Running, TestPebbleError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.try({
      try: () => {
        const child: ChildProcess = spawn(command, args, {
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
        return { child, running: { output: () => output, exited: () => exited } }
      },
      catch: (cause) => new TestPebbleError({ message: `cannot start ${command}: ${String(cause)}`, cause })
    }),
    ({ child, running }) =>
      Effect.async<void>((resume) => {
        if (running.exited() !== undefined || child.exitCode !== null) return resume(Effect.void)
        const timer = setTimeout(() => child.kill("SIGKILL"), 3_000)
        child.once("exit", () => {
          clearTimeout(timer)
          resume(Effect.void)
        })
        child.kill("SIGTERM")
      })
  ).pipe(Effect.map(({ running }) => running))

/** Serves `/.well-known/acme-challenge/<token>` from `lookup` on 127.0.0.1:`port`. */
const challengeServer = (port: number, lookup: (token: string) => string | undefined) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () =>
        new Promise<Server>((resolve, reject) => {
          const server = createHttpServer((request, response) => {
            const prefix = "/.well-known/acme-challenge/"
            const url = request.url ?? ""
            const keyAuthorization = url.startsWith(prefix) ? lookup(url.slice(prefix.length)) : undefined
            if (keyAuthorization === undefined) {
              response.writeHead(404, { "content-type": "text/plain" }).end("no such token")
            } else {
              response.writeHead(200, { "content-type": "text/plain" }).end(keyAuthorization)
            }
          })
          server.once("error", reject)
          server.listen(port, "127.0.0.1", () => resolve(server))
        }),
      catch: (cause) =>
        new TestPebbleError({ message: `cannot serve HTTP-01 on port ${port}: ${String(cause)}`, cause })
    }),
    (server) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

export class TestPebble extends Context.Tag("test/TestPebble")<
  TestPebble,
  {
    readonly directoryUrl: string
    /** The CA that signed Pebble's HTTPS certificate. */
    readonly caPem: string
    /** Where Pebble's validation authority resolves names (point a test hostname at 127.0.0.1). */
    readonly challtestsrv: Challtestsrv["Type"]
    /** Tokens published here are served to Pebble on its `httpPort`. */
    readonly servedStore: Http01ChallengeStore.Http01ChallengeStore["Type"]
  }
>() {}

const startPebble = Effect.gen(function* () {
  const pebble = yield* findProgram("pebble")
  const openssl = yield* findProgram("openssl")
  const challtestsrv = yield* Challtestsrv
  const directory = yield* scratchDirectory
  const tls = yield* makeTlsFiles(openssl, directory)
  const [listenPort, managementPort, httpPort, tlsPort] = [
    yield* freeTcpPort,
    yield* freeTcpPort,
    yield* freeTcpPort,
    yield* freeTcpPort
  ]

  const servedStore = Http01ChallengeStore.makeInMemory()
  yield* challengeServer(httpPort, servedStore.getSync)

  const configPath = join(directory, "pebble-config.json")
  writeFileSync(
    configPath,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${listenPort}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: tls.certificate,
        privateKey: tls.privateKey,
        httpPort,
        tlsPort,
        ocspResponderURL: "",
        externalAccountBindingRequired: false
      }
    })
  )
  const running = yield* spawnScoped(pebble, ["-config", configPath, "-dnsserver", challtestsrv.server], {
    PEBBLE_VA_NOSLEEP: "1",
    PEBBLE_WFE_NONCEREJECT: "0",
    PEBBLE_AUTHZREUSE: "0"
  })

  const directoryUrl = `https://127.0.0.1:${listenPort}/dir`
  const agent = new Agent({ ca: tls.caPem })
  const probe = Effect.tryPromise(
    () =>
      new Promise<void>((resolve, reject) => {
        httpsGet(directoryUrl, { agent }, (response) => {
          response.resume()
          if (response.statusCode === 200) resolve()
          else reject(new Error(`HTTP ${response.statusCode}`))
        }).on("error", reject)
      })
  )
  yield* Effect.suspend((): Effect.Effect<void, unknown> => {
    const exited = running.exited()
    return exited === undefined
      ? probe
      : Effect.fail(new TestPebbleError({ message: `pebble ${exited}: ${running.output().trim()}` }))
  }).pipe(
    Effect.retry({
      schedule: Schedule.spaced(Duration.millis(100)).pipe(Schedule.upTo(Duration.seconds(15))),
      while: (error) => !(error instanceof TestPebbleError)
    }),
    Effect.mapError((error: unknown) =>
      error instanceof TestPebbleError
        ? error
        : new TestPebbleError({
            message: `pebble did not answer ${directoryUrl} in 15 s: ${String(error)}; output: ${running.output().trim()}`
          })
    )
  )

  // Trust Pebble's listener for acme-client's requests: its own axios instance, given our CA.
  acme.axios.defaults.httpsAgent = agent

  return TestPebble.of({ directoryUrl, caPem: tls.caPem, challtestsrv, servedStore })
})

/** Pebble (and challtestsrv and the HTTP-01 server) on free loopback ports, for the layer's scope. */
export const testPebbleLayer: Layer.Layer<TestPebble, TestPebbleError | TestDnsServerError> = Layer.scoped(
  TestPebble,
  startPebble
).pipe(Layer.provide(challtestsrvLayer))
