/**
 * The Node HTTP server. Unlike `NodeHttpServer.layer`, which listens before a handler is attached
 * (a request in that window hangs forever), it builds the whole application first and opens the
 * port only once a request can be answered. Closing its scope stops accepting, lets in-flight
 * requests finish within a grace period, then closes what is left.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Duplex } from "node:stream"
import { HttpApiBuilder, HttpIncomingMessage } from "@effect/platform"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { maxRequestBodyBytes } from "@petstore/api"
import { Context, Duration, Effect, Layer, Option, Runtime } from "effect"
import type { HttpMetrics } from "./HttpMetrics.js"
import { answerMalformedRequest } from "./MalformedRequest.js"
import { armDeadline, ensureRequestId, registerRequestFiber } from "./RequestDeadline.js"
import { recordRequest, withRequestLifecycle } from "./RequestLifecycle.js"

export interface PetstoreHttpServerOptions {
  readonly port: number
  readonly host?: string | undefined
  /** Deadline of one request, after which it is answered 503. */
  readonly requestTimeout: Duration.DurationInput
  /** How long a shutdown waits for in-flight requests before closing their connections. */
  readonly shutdownGrace: Duration.DurationInput
}

/** Where the server listens, once it does (port 0 asks the system for a free port). */
export class ListeningAddress extends Context.Tag("@petstore/http/ListeningAddress")<
  ListeningAddress,
  { readonly host: string; readonly port: number }
>() {}

const listen = (server: Server, options: PetstoreHttpServerOptions) =>
  Effect.async<AddressInfo, Error>((resume) => {
    const onError = (error: Error) => resume(Effect.fail(error))
    server.once("error", onError)
    server.listen({ port: options.port, host: options.host }, () => {
      server.off("error", onError)
      resume(Effect.succeed(server.address() as AddressInfo))
    })
  })

const close = (server: Server, grace: Duration.DurationInput) =>
  Effect.async<void>((resume) => {
    server.close(() => resume(Effect.void))
    server.closeIdleConnections()
    const timer = setTimeout(() => server.closeAllConnections(), Duration.toMillis(grace))
    timer.unref()
  })

export const PetstoreHttpServer = (options: PetstoreHttpServerOptions) =>
  Layer.scoped(
    ListeningAddress,
    Effect.gen(function* () {
      const app = yield* HttpApiBuilder.httpApp
      const handler = yield* NodeHttpServer.makeHandler(
        withRequestLifecycle({ register: registerRequestFiber })(app)
      ).pipe(HttpIncomingMessage.withMaxBodySize(Option.some(maxRequestBodyBytes)))
      const runFork = Runtime.runFork(yield* Effect.runtime<HttpMetrics>())
      const deadline = Duration.toMillis(options.requestTimeout)
      // Node's own limits sit just outside the handled deadline; the headers limit is slow-loris
      // protection (node requires it not to exceed the request limit).
      const nodeRequestTimeout = Duration.toMillis(options.requestTimeout) + 5_000
      const server = createServer({
        headersTimeout: Math.min(10_000, nodeRequestTimeout),
        requestTimeout: nodeRequestTimeout,
        keepAliveTimeout: 5_000
      })
      server.on("request", (request, response) => {
        ensureRequestId(request)
        const startedAt = Date.now()
        armDeadline(request, response, deadline, (requestId) => {
          runFork(
            recordRequest({
              requestId,
              method: request.method ?? "",
              path: (request.url ?? "").split("?")[0] ?? "",
              status: 503,
              durationMs: Date.now() - startedAt
            })
          )
        })
        handler(request, response)
      })
      server.on("clientError", (error: Error & { readonly code?: string }, socket: Duplex) => {
        const requestId = answerMalformedRequest(error, socket)
        if (requestId !== undefined)
          runFork(recordRequest({ requestId, method: "", path: "", status: 400, durationMs: 0 }))
      })
      const address = yield* Effect.acquireRelease(listen(server, options), () =>
        close(server, options.shutdownGrace)
      )
      return { host: address.address, port: address.port }
    })
  ).pipe(
    Layer.provide([HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer, NodeHttpServer.layerContext])
  )
