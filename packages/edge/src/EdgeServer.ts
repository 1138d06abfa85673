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
import type { Server, Socket } from "node:net"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Context, Duration, Effect, Layer, Scope } from "effect"
import { type EdgeServices, httpApp, httpsApp } from "./EdgeApps.js"
import * as EdgeDecisions from "./EdgeDecisions.js"
import { EdgeError } from "./EdgeError.js"
import { makeSniCallback } from "./SniCertificates.js"

export interface EdgeOptions extends EdgeDecisions.EdgeDecisionOptions {
  /** The address both listeners bind, e.g. `0.0.0.0` or `127.0.0.1`. */
  readonly host: string
  /** Port 0 asks the system for a free port (see `EdgeAddresses`). */
  readonly httpPort: number
  readonly httpsPort: number
}

export interface ListenerAddress {
  readonly host: string
  readonly port: number
}

/** Where the listeners are bound, once they are. */
export class EdgeAddresses extends Context.Service<
  EdgeAddresses,
  { readonly http: ListenerAddress; readonly https: ListenerAddress }
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

type Listener = EdgeError["listener"]

const reasonOf = (error: Error): string => {
  const code = "code" in error ? error.code : undefined
  switch (code) {
    case "EADDRINUSE":
      return "the port is already in use"
    case "EACCES":
      return "permission denied (ports below 1024 need privileges)"
    case "EADDRNOTAVAIL":
      return "the address is not one of this machine's"
    default:
      return error.message
  }
}

/** Opens `server` on `host:port`; the address it is bound to (the chosen port, for port 0). */
const listen = (server: Server, listener: Listener, host: string, port: number) =>
  Effect.callback<ListenerAddress, EdgeError>((resume) => {
    const onError = (error: Error) =>
      resume(
        Effect.fail(
          new EdgeError({
            listener,
            host,
            port,
            message: `the ${listener} listener cannot listen on ${host}:${port}: ${reasonOf(error)}`
          })
        )
      )
    server.once("error", onError)
    server.listen({ host, port }, () => {
      server.off("error", onError)
      const address = server.address()
      resume(
        typeof address === "object" && address !== null
          ? Effect.succeed({ host: address.address, port: address.port })
          : Effect.succeed({ host, port })
      )
    })
  })

/** Stops accepting, closes idle connections now and every other one after the grace period. */
const close = (server: Server & { readonly closeIdleConnections: () => void }, sockets: Set<Socket>) =>
  Effect.callback<void>((resume) => {
    const timer = setTimeout(() => {
      for (const socket of sockets) socket.destroy()
    }, Duration.toMillis(shutdownGrace))
    server.close(() => {
      clearTimeout(timer)
      resume(Effect.void)
    })
    server.closeIdleConnections()
  })

/** Listens, and closes when the scope closes. */
const open = (
  server: Server & { readonly closeIdleConnections: () => void },
  listener: Listener,
  host: string,
  port: number
) => {
  // Every connection, from its first byte: a shutdown must also end those still in their TLS
  // handshake, which the HTTP server does not track.
  const sockets = new Set<Socket>()
  server.on("connection", (socket: Socket) => {
    sockets.add(socket)
    socket.once("close", () => sockets.delete(socket))
  })
  return Effect.acquireRelease(listen(server, listener, host, port), () => close(server, sockets))
}

export const layer = (options: EdgeOptions): Layer.Layer<EdgeAddresses, EdgeError, EdgeServices> =>
  Layer.effect(
    EdgeAddresses,
    Effect.gen(function* () {
      const decisions = yield* EdgeDecisions.make(options)
      const provided = <A, E, R>(app: Effect.Effect<A, E, R>) =>
        Effect.provideService(app, EdgeDecisions.EdgeDecisions, decisions)
      // The requests' fibers get a scope of their own, made before the listeners open and so closed
      // after they have (finalizers run last-added first): a shutdown lets the requests in flight
      // finish within the grace period rather than interrupting them as it begins.
      const requests = yield* Scope.fork(yield* Effect.scope)
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
