/**
 * `pebble-challtestsrv` for a test's scope: a DNS server whose records are set through its HTTP
 * management API (and what Pebble resolves names through), on free loopback ports. From the
 * `ghcr.io/letsencrypt/pebble-challtestsrv` image when a container runtime answers, else Debian's
 * `pebble` package (`TestServerSource`). Only DNS and management are served: no challenge servers,
 * and no default address for names without records.
 */
import { Effect, type Scope } from "effect"
import * as DnsServerProbe from "./DnsServerProbe.js"
import { freePort, type LoopbackServerError, startWithRetry } from "./LoopbackServer.js"
import * as TestServerProcess from "./TestServerProcess.js"

export const program: TestServerProcess.ServerProgram = {
  program: "pebble-challtestsrv",
  install: "Debian's `pebble` package",
  image: { name: "ghcr.io/letsencrypt/pebble-challtestsrv:2.9.0", entrypoint: "/app" }
}

export interface ChallengeServer {
  /** The DNS server, as `127.0.0.1:<port>`. */
  readonly dnsServer: string
  /** The management API: `http://127.0.0.1:<port>`. */
  readonly managementUrl: string
}

/** Ready when the management API takes a request and the DNS server answers. */
const ready = (server: ChallengeServer): Effect.Effect<void, unknown> =>
  Effect.andThen(
    Effect.tryPromise(async () => {
      const response = await fetch(`${server.managementUrl}/clear-a`, {
        method: "POST",
        body: JSON.stringify({ host: "readiness.probe.invalid." })
      })
      if (!response.ok) throw new Error(`HTTP ${response.status}`)
    }),
    DnsServerProbe.answers(server.dnsServer)
  )

export const start: Effect.Effect<ChallengeServer, LoopbackServerError, Scope.Scope> = startWithRetry(
  Effect.gen(function* () {
    const dnsPort = yield* freePort
    const managementPort = yield* freePort
    const server: ChallengeServer = {
      dnsServer: `127.0.0.1:${dnsPort}`,
      managementUrl: `http://127.0.0.1:${managementPort}`
    }
    yield* TestServerProcess.start(program, (source) => ({
      args: [
        "-dns01",
        server.dnsServer,
        "-management",
        `127.0.0.1:${managementPort}`,
        "-http01",
        "",
        "-https01",
        "",
        "-tlsalpn01",
        "",
        // The image's version (2.5 and later) also serves DNS over HTTPS unless told not to; Debian's has none.
        ...(source._tag === "Container" ? ["-doh", ""] : []),
        "-defaultIPv4",
        "",
        "-defaultIPv6",
        ""
      ],
      ready: ready(server)
    }))
    return server
  })
)
