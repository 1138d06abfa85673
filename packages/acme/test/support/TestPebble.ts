/**
 * A real ACME CA on loopback for the adapter's tests: Pebble (`@petstore/testing`: a container when a
 * container runtime answers, else Debian's `pebble`), resolving names through `pebble-challtestsrv`
 * (from `@petstore/dns/testing`), with its HTTPS listener on a certificate from a throwaway CA made
 * with `openssl` (trusted by acme-client's axios instance: no TLS check is turned off).
 * Pebble validates HTTP-01 on `httpPort`, where a node:http server answers
 * `/.well-known/acme-challenge/<token>` from an in-memory Http01ChallengeStore.
 * Everything starts on free ports when the layer's scope opens and stops when it closes. A missing
 * program fails the tests with a message saying what to install: never a skip.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer as createHttpServer, type Server } from "node:http"
import { Agent, get as httpsGet } from "node:https"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Http01ChallengeStore } from "@petstore/certificates"
import { Challtestsrv, challtestsrvLayer, type TestDnsServersError } from "@petstore/dns/testing"
import { MemoryHttp01ChallengeStore } from "@petstore/store-memory"
import { LoopbackServer, TestPebbleServer } from "@petstore/testing"
import * as acme from "acme-client"
import { Context, Data, Effect, Layer, Option } from "effect"

/** Pebble's own setup failed (its TLS files, the HTTP-01 server). */
export class TestPebbleError extends Data.TaggedError("TestPebbleError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

const findProgram = (program: string) =>
  LoopbackServer.findProgram(
    program,
    "the ACME tests need it for Pebble's TLS files: `.ci/run` installs it (apt-get install -y --no-install-recommends openssl)"
  )

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

const challengePrefix = "/.well-known/acme-challenge/"

/** The answer to a request for `url`: the key authorization published for its token, or why not. */
const answer = (
  store: Http01ChallengeStore["Service"],
  url: string
): Effect.Effect<{ readonly status: number; readonly body: string }> =>
  url.startsWith(challengePrefix)
    ? store.find(url.slice(challengePrefix.length)).pipe(
        Effect.map(
          Option.match({
            onNone: () => ({ status: 404, body: "no such token" }),
            onSome: (keyAuthorization) => ({ status: 200, body: keyAuthorization })
          })
        ),
        Effect.catch((error) => Effect.succeed({ status: 500, body: error.message }))
      )
    : Effect.succeed({ status: 404, body: "not a challenge" })

/** Serves `/.well-known/acme-challenge/<token>` from `store` on 127.0.0.1:`port`. */
const challengeServer = (port: number, store: Http01ChallengeStore["Service"]) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () =>
        new Promise<Server>((resolve, reject) => {
          const server = createHttpServer((request, response) => {
            void Effect.runPromise(answer(store, request.url ?? "")).then(({ status, body }) => {
              response.writeHead(status, { "content-type": "text/plain" }).end(body)
            })
          })
          server.once("error", reject)
          server.listen(port, "127.0.0.1", () => resolve(server))
        }),
      catch: (cause) =>
        new TestPebbleError({ message: `cannot serve HTTP-01 on port ${port}: ${String(cause)}`, cause })
    }),
    (server) =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

export class TestPebble extends Context.Service<
  TestPebble,
  {
    readonly directoryUrl: string
    /** The CA that signed Pebble's HTTPS certificate. */
    readonly caPem: string
    /** Where Pebble's validation authority resolves names (point a test hostname at 127.0.0.1). */
    readonly challtestsrv: Challtestsrv["Service"]
    /** Tokens published here are served to Pebble on its `httpPort` (unless the test serves them itself). */
    readonly servedStore: Http01ChallengeStore["Service"]
    /** The roots Pebble issues under (new at every start), as one PEM: what a TLS client must trust. */
    readonly issuingRootPem: Effect.Effect<string, TestPebbleError>
  }
>()("test/TestPebble") {}

export interface TestPebbleOptions {
  /**
   * Where Pebble validates HTTP-01: a port the test serves challenges on itself (an edge under
   * test). Absent, a free port served from `servedStore`.
   */
  readonly httpPort?: number
}

const startPebble = (options: TestPebbleOptions) =>
  Effect.gen(function* () {
    const openssl = yield* findProgram("openssl")
    const challtestsrv = yield* Challtestsrv
    const directory = yield* scratchDirectory
    const tls = yield* makeTlsFiles(openssl, directory)
    const [listenPort, managementPort, tlsPort] = [
      yield* LoopbackServer.freePort,
      yield* LoopbackServer.freePort,
      yield* LoopbackServer.freePort
    ]
    const httpPort = options.httpPort ?? (yield* LoopbackServer.freePort)

    const servedStore = yield* MemoryHttp01ChallengeStore.make
    if (options.httpPort === undefined) yield* challengeServer(httpPort, servedStore)

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
    yield* TestPebbleServer.start({
      config: configPath,
      dnsServer: challtestsrv.server,
      environment: {
        PEBBLE_VA_NOSLEEP: "1",
        PEBBLE_WFE_NONCEREJECT: "0",
        PEBBLE_AUTHZREUSE: "0"
      },
      ready: probe
    })

    // Trust Pebble's listener for acme-client's requests: its own axios instance, given our CA.
    acme.axios.defaults.httpsAgent = agent

    const rootPem = (index: number) =>
      Effect.tryPromise({
        try: () =>
          new Promise<string | undefined>((resolve, reject) => {
            httpsGet(`https://127.0.0.1:${managementPort}/roots/${index}`, { agent }, (response) => {
              let body = ""
              response.setEncoding("utf8")
              response.on("data", (chunk: string) => {
                body += chunk
              })
              response.on("end", () => resolve(response.statusCode === 200 ? body : undefined))
            }).on("error", reject)
          }),
        catch: (cause) =>
          new TestPebbleError({ message: `cannot read Pebble's roots: ${String(cause)}`, cause })
      })
    // Pebble issues under several chains (alternate roots); which one a certificate ends in is its choice.
    const issuingRootPem = Effect.gen(function* () {
      const roots: Array<string> = []
      for (let index = 0; index < 10; index++) {
        const root = yield* rootPem(index)
        if (root === undefined) break
        roots.push(root.trim())
      }
      if (roots.length === 0) return yield* new TestPebbleError({ message: "Pebble offers no root" })
      return `${roots.join("\n")}\n`
    })

    return TestPebble.of({ directoryUrl, caPem: tls.caPem, challtestsrv, servedStore, issuingRootPem })
  })

/** Pebble (and challtestsrv and the HTTP-01 server) on free loopback ports, for the layer's scope. */
export const testPebbleLayer: Layer.Layer<TestPebble, TestPebbleError | TestDnsServersError> = Layer.effect(
  TestPebble,
  startPebble({})
).pipe(Layer.provide(challtestsrvLayer))

/** Pebble validating HTTP-01 on `options.httpPort`, resolving through the enclosing layer's challtestsrv. */
export const testPebbleLayerWith = (
  options: TestPebbleOptions
): Layer.Layer<TestPebble, TestPebbleError | TestDnsServersError, Challtestsrv> =>
  Layer.effect(TestPebble, startPebble(options))
