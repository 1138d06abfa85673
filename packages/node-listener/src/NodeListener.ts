/**
 * The one way this service runs a Node listener (a `node:http` or `node:https` server) in a scope: the
 * caller attaches its handlers first and the port or socket opens last, so no connection is accepted
 * before it can be answered; a listen that fails is a `ListenError` saying why in words; closing the
 * scope stops accepting, closes idle connections at once, lets requests in flight finish within a
 * grace period, then destroys whatever connections are left (those still in their TLS handshake too).
 *
 * Requests are answered by Effect's own `NodeHttpServer.makeHandler`. Its `NodeHttpServer.make` is not
 * used: it listens before a handler is attached (a request in that window hangs forever) and, closing,
 * waits for open connections without bound.
 */
import { createServer, type ServerOptions } from "node:http"
import type { Server, Socket } from "node:net"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Duration, Effect, Scope } from "effect"
import type { HttpServerRequest } from "effect/http/HttpServerRequest"
import type { HttpServerResponse } from "effect/http/HttpServerResponse"
import type { BoundAddress, ListenAddress } from "./ListenAddress.js"
import { type ListenError, listenErrorOf } from "./ListenError.js"

export interface ListenOptions<A extends ListenAddress> {
  /** What listens, as an error names it: `the ${listener} listener cannot listen on …`. */
  readonly listener: string
  readonly address: A
  /** How long closing waits for requests in flight before it ends their connections. */
  readonly shutdownGrace: Duration.Input
  /** The settings that chose the address, which a listen error names so the operator knows what to change. */
  readonly settings?: string | undefined
}

/** A server `listen` can close: every `node:http` and `node:https` server can close its idle connections. */
export type Listenable = Server & { readonly closeIdleConnections: () => void }

const boundAddress = <A extends ListenAddress>(server: Server, requested: A): BoundAddress<A> => {
  const address = server.address()
  const bound =
    "path" in requested || typeof address !== "object" || address === null
      ? requested
      : { host: address.address, port: address.port }
  return bound as BoundAddress<A>
}

const open = <A extends ListenAddress>(server: Server, options: ListenOptions<A>) =>
  Effect.callback<BoundAddress<A>, ListenError>((resume) => {
    const onError = (error: Error) => resume(Effect.fail(listenErrorOf(error, options)))
    server.once("error", onError)
    server.listen(options.address, () => {
      server.off("error", onError)
      resume(Effect.succeed(boundAddress(server, options.address)))
    })
    // Interrupted while opening (a stop during the start): nothing may stay open.
    return Effect.sync(() => {
      server.off("error", onError)
      server.close()
    })
  })

const close = (server: Listenable, connections: ReadonlySet<Socket>, grace: Duration.Input) =>
  Effect.callback<void>((resume) => {
    const timer = setTimeout(
      () => {
        for (const connection of connections) connection.destroy()
      },
      Duration.toMillis(Duration.fromInputUnsafe(grace))
    )
    server.close(() => {
      clearTimeout(timer)
      resume(Effect.void)
    })
    server.closeIdleConnections()
  })

/**
 * Opens `server`, whose handlers are attached, on `options.address` until the scope closes: the address
 * it is bound to (the chosen port, for port 0).
 */
export const listen = <A extends ListenAddress>(
  server: Listenable,
  options: ListenOptions<A>
): Effect.Effect<BoundAddress<A>, ListenError, Scope.Scope> => {
  // Every connection from its first byte: the HTTP server does not track those still in a TLS handshake.
  const connections = new Set<Socket>()
  server.on("connection", (connection: Socket) => {
    connections.add(connection)
    connection.once("close", () => connections.delete(connection))
  })
  return Effect.acquireRelease(open(server, options), () => close(server, connections, options.shutdownGrace))
}

/**
 * A scope for the requests' fibers. Made before the listener opens, it closes after the listener has
 * (finalizers run last-added first): requests in flight get their grace period, and whatever still
 * runs after it is interrupted.
 */
export const requestScope: Effect.Effect<Scope.Scope, never, Scope.Scope> = Effect.flatMap(
  Effect.scope,
  (scope) => Scope.fork(scope, "parallel")
)

export interface ServeOptions<A extends ListenAddress> extends ListenOptions<A> {
  /** Node's own limits for the server (`headersTimeout`, `requestTimeout`, `keepAliveTimeout`). */
  readonly server?: ServerOptions | undefined
}

/** Serves `app` over plain HTTP on `options.address` until the scope closes. */
export const serve = <A extends ListenAddress, E, R>(
  app: Effect.Effect<HttpServerResponse, E, R>,
  options: ServeOptions<A>
): Effect.Effect<BoundAddress<A>, ListenError, Scope.Scope | Exclude<R, HttpServerRequest | Scope.Scope>> =>
  Effect.gen(function* () {
    const handler = yield* NodeHttpServer.makeHandler(app, { scope: yield* requestScope })
    return yield* listen(createServer(options.server ?? {}, handler), options)
  })
