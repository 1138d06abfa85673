/**
 * The Node HTTP server. Unlike `NodeHttpServer.layer`, which listens before a handler is attached
 * (a request in that window hangs forever), it builds the whole application first and opens the
 * port only once a request can be answered. Closing its scope stops accepting, lets in-flight
 * requests finish within a grace period, then closes what is left.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Duplex } from "node:stream"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { maxRequestBodyBytes } from "@petstore/api"
import { ByteSize, Context, Duration, Effect, Layer, Scope } from "effect"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import { expectationFailedApp } from "./ExpectationFailed.js"
import type { HttpMetrics } from "./HttpMetrics.js"
import { answerMalformedRequest } from "./MalformedRequest.js"
import { PetstoreHttpApp, type PetstoreHttpAppServices } from "./PetstoreHttpApi.js"
import { makeRequestDeadline } from "./RequestDeadline.js"
import { recordRequest, withRequestLifecycle } from "./RequestLifecycle.js"

export interface PetstoreHttpServerOptions {
  readonly port: number
  readonly host?: string | undefined
  /** Deadline of one request, after which it is answered 503. */
  readonly requestTimeout: Duration.Input
  /** How long a shutdown waits for in-flight requests before closing their connections. */
  readonly shutdownGrace: Duration.Input
}

/** Where the server listens, once it does (port 0 asks the system for a free port). */
export class ListeningAddress extends Context.Service<
  ListeningAddress,
  { readonly host: string; readonly port: number }
>()("@petstore/http/ListeningAddress") {}

const listen = (server: Server, options: PetstoreHttpServerOptions) =>
  Effect.callback<AddressInfo, Error>((resume) => {
    const onError = (error: Error) => resume(Effect.fail(error))
    server.once("error", onError)
    server.listen({ port: options.port, host: options.host }, () => {
      server.off("error", onError)
      const address = server.address()
      if (address === null || typeof address === "string") {
        resume(Effect.fail(new Error(`the server listens on ${String(address)}, not on a TCP port`)))
      } else {
        resume(Effect.succeed(address))
      }
    })
  })

const close = (server: Server, grace: Duration.Input) =>
  Effect.callback<void>((resume) => {
    server.close(() => resume(Effect.void))
    server.closeIdleConnections()
    const timer = setTimeout(
      () => server.closeAllConnections(),
      Duration.toMillis(Duration.fromInputUnsafe(grace))
    )
    timer.unref()
  })

const maxBodySize = ByteSize.bytes(maxRequestBodyBytes)

export const PetstoreHttpServer = (
  options: PetstoreHttpServerOptions
): Layer.Layer<ListeningAddress, Error, PetstoreHttpApp | HttpMetrics | PetstoreHttpAppServices> =>
  Layer.effect(
    ListeningAddress,
    Effect.gen(function* () {
      const app = yield* PetstoreHttpApp
      const runFork = Effect.runForkWith(yield* Effect.context<HttpMetrics>())
      const deadline = Duration.toMillis(Duration.fromInputUnsafe(options.requestTimeout))
      // The deadline's answer is logged and counted like any other.
      const armDeadline = makeRequestDeadline(deadline, (expired) => {
        runFork(recordRequest(expired))
      })
      // Requests run in a scope of their own, closed after the server: in-flight requests first get
      // their grace, then whatever is left is interrupted.
      const requests = yield* Scope.fork(yield* Effect.scope, "parallel")
      const handlerOf = <E, R>(httpApp: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
        NodeHttpServer.makeHandler(withRequestLifecycle({ register: armDeadline })(httpApp), {
          scope: requests
        }).pipe(Effect.provideService(HttpIncomingMessage.MaxBodySize, maxBodySize))
      const handler = yield* handlerOf(app)
      const refuseExpectation = yield* handlerOf(expectationFailedApp)
      // Node's own limits sit just outside the handled deadline; the headers limit is slow-loris
      // protection (node requires it not to exceed the request limit).
      const nodeRequestTimeout = deadline + 5_000
      const server = createServer({
        headersTimeout: Math.min(10_000, nodeRequestTimeout),
        requestTimeout: nodeRequestTimeout,
        keepAliveTimeout: 5_000
      })
      server.on("request", handler)
      server.on("checkExpectation", refuseExpectation)
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
  )
