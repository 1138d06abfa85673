/**
 * The serving edge as one scoped layer: an HTTP and an HTTPS listener in front of the domain's
 * `resolveEdge`, whose decisions it keeps in memory while they hold (`EdgeDecisions`). The request
 * handlers are built first and the ports opened last, so no connection is accepted before it can be
 * answered; closing the scope stops accepting, lets requests in flight finish within a grace
 * period, then closes whatever connections are left (kept-alive ones included).
 */
import { constants as cryptoConstants } from "node:crypto"
import { createServer as createHttpServer } from "node:http"
import { createServer as createHttpsServer } from "node:https"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { type ListenError, NodeListener, type TcpAddress } from "@petstore/node-listener"
import { Context, Duration, Effect, Layer } from "effect"
import { type EdgeServices, httpApp, httpsApp } from "./EdgeApps.js"
import * as EdgeDecisions from "./EdgeDecisions.js"
import { makeSniCallback } from "./SniCertificates.js"

export interface EdgeOptions extends EdgeDecisions.EdgeDecisionOptions {
  /** The address both listeners bind, e.g. `0.0.0.0` or `127.0.0.1`. */
  readonly host: string
  /** Port 0 asks the system for a free port (see `EdgeAddresses`). */
  readonly httpPort: number
  readonly httpsPort: number
}

/** Where the listeners are bound, once they are. */
export class EdgeAddresses extends Context.Service<
  EdgeAddresses,
  { readonly http: TcpAddress; readonly https: TcpAddress }
>()("@petstore/edge/EdgeAddresses") {}

/** How long a shutdown waits for requests in flight before it closes their connections. */
const shutdownGrace = Duration.seconds(10)

/** Slow-loris protection and idle kept-alive connections, in milliseconds (Node's own options). */
const serverTimeouts = { headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000 }

/** A TLS handshake (SNI lookup included) that takes longer is dropped. */
const handshakeTimeout = 15_000

/**
 * No TLS session is ever resumed, so every handshake chooses its certificate (and refuses a name not
 * served) from current state. A resumed handshake skips the SNI callback: a removed name's session
 * would resume, and on TLS 1.2 Node then reports no server name (every request on it was 421).
 * Without tickets (`SSL_OP_NO_TICKET`) resumption would need the server's session cache, which Node
 * leaves to `resumeSession` listeners, and there are none: TLS 1.2 and 1.3 clients offering a session
 * get a full handshake. It costs about 1 ms of CPU more than a resumed one (client and server
 * together, ECDSA P-256 keys, measured on this machine kind); kept-alive connections spare it.
 */
const noResumption = { secureOptions: cryptoConstants.SSL_OP_NO_TICKET }

/** Listens until the scope closes; the listener is named `http` or `https` in a listen error. */
const open = (server: NodeListener.Listenable, listener: "http" | "https", host: string, port: number) =>
  NodeListener.listen(server, { listener, address: { host, port }, shutdownGrace })

export const layer = (options: EdgeOptions): Layer.Layer<EdgeAddresses, ListenError, EdgeServices> =>
  Layer.effect(
    EdgeAddresses,
    Effect.gen(function* () {
      const decisions = yield* EdgeDecisions.make(options)
      const provided = <A, E, R>(app: Effect.Effect<A, E, R>) =>
        Effect.provideService(app, EdgeDecisions.EdgeDecisions, decisions)
      const requests = yield* NodeListener.requestScope
      const httpServer = createHttpServer(
        serverTimeouts,
        yield* NodeHttpServer.makeHandler(provided(httpApp), { scope: requests })
      )
      const httpsServer = createHttpsServer(
        {
          ...serverTimeouts,
          ...noResumption,
          handshakeTimeout,
          SNICallback: makeSniCallback(decisions, yield* Effect.context<never>())
        },
        yield* NodeHttpServer.makeHandler(provided(httpsApp), { scope: requests })
      )
      const http = yield* open(httpServer, "http", options.host, options.httpPort)
      const https = yield* open(httpsServer, "https", options.host, options.httpsPort)
      return { http, https }
    })
  )
