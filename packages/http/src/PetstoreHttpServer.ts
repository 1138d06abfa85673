/**
 * The API's Node HTTP server: Node's limits (slow-loris, keep-alive, a request limit just past the
 * handled deadline), the answers Node would give itself (malformed requests, `Expect`), and the
 * whole application built before `NodeListener` opens the port, so a request is never accepted
 * before it can be answered. Closing its scope stops accepting, lets in-flight requests finish
 * within a grace period, then closes what is left.
 */
import { createServer } from "node:http"
import type { Duplex } from "node:stream"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { maxRequestBodyBytes } from "@petstore/api"
import { type ListenError, NodeListener } from "@petstore/node-listener"
import { ByteSize, Context, Duration, Effect, Layer } from "effect"
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
  readonly host: string
  /** Deadline of one request, after which it is answered 503. */
  readonly requestTimeout: Duration.Input
  /** How long a shutdown waits for in-flight requests before closing their connections. */
  readonly shutdownGrace: Duration.Input
  /** The settings that chose the address, named when the port cannot be opened (`PORT, HOST`). */
  readonly settings?: string | undefined
}

/** Where the server listens, once it does (port 0 asks the system for a free port). */
export class ListeningAddress extends Context.Service<
  ListeningAddress,
  { readonly host: string; readonly port: number }
>()("@petstore/http/ListeningAddress") {}

const maxBodySize = ByteSize.bytes(maxRequestBodyBytes)

export const PetstoreHttpServer = (
  options: PetstoreHttpServerOptions
): Layer.Layer<ListeningAddress, ListenError, PetstoreHttpApp | HttpMetrics | PetstoreHttpAppServices> =>
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
      const requests = yield* NodeListener.requestScope
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
      return yield* NodeListener.listen(server, {
        listener: "API",
        address: { host: options.host, port: options.port },
        shutdownGrace: options.shutdownGrace,
        settings: options.settings
      })
    })
  )
