/**
 * What every request goes through, whatever its route: a request id (echoed or generated), every
 * failure turned into the one error body, and one structured log line and its metrics when it is
 * answered. The server-side deadline is kept outside, by the server (RequestDeadline), which this
 * registers each request with, under its request id. Plain functions and one wrapper, usable around
 * any route, `HttpApi` or not.
 */

import { pathOf } from "@petstore/node-listener"
import { Clock, Context, Effect, type Fiber } from "effect"
import * as HttpBody from "effect/http/HttpBody"
import { HttpServerRequest } from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { lacksRetryAfter, responseForCause, retryAfterUnavailable } from "./ErrorResponse.js"
import { HttpMetrics } from "./HttpMetrics.js"
import { jsonContentType } from "./ResponseHeaders.js"

export { jsonContentType } from "./ResponseHeaders.js"

/** A client's `X-Request-Id` is kept when it is short, visible ASCII; otherwise a new one is made. */
export const acceptableRequestId = (value: string | undefined): value is string =>
  value !== undefined && /^[\x21-\x7E]{1,200}$/.test(value)

/** The id of a request whose client sent none acceptable (or none could be read). */
export const newRequestId = (): string => globalThis.crypto.randomUUID()

/**
 * What every answer carries, however it was made (`HttpApi` encodes the errors an operation declares):
 * JSON bodies say their charset, as the contract promises, and a 503 says when to retry.
 */
const finished = (response: HttpServerResponse.HttpServerResponse, requestId: string) => {
  const withId = HttpServerResponse.setHeader(withJsonCharset(response), "x-request-id", requestId)
  return lacksRetryAfter(response.status, response.headers)
    ? HttpServerResponse.setHeader(withId, "retry-after", retryAfterUnavailable)
    : withId
}

const withJsonCharset = (response: HttpServerResponse.HttpServerResponse) => {
  const body = response.body
  if (body._tag !== "Uint8Array" || body.contentType !== "application/json") return response
  return HttpServerResponse.setBody(
    response,
    body.text === undefined
      ? HttpBody.uint8Array(body.body, jsonContentType)
      : HttpBody.text(body.text, jsonContentType)
  )
}

export interface RequestRecord {
  readonly requestId: string
  readonly method: string
  readonly path: string
  readonly status: number
  readonly durationMs: number
}

const record = (metrics: HttpMetrics["Service"], fields: RequestRecord): Effect.Effect<void> => {
  metrics.observeRequest(fields)
  return Effect.annotateLogs(Effect.logInfo("request"), { ...fields })
}

/** One log line per answered request, and its count and latency in the metrics. */
export const recordRequest = (fields: RequestRecord): Effect.Effect<void, never, HttpMetrics> =>
  Effect.flatMap(HttpMetrics, (metrics) => record(metrics, fields))

export interface RequestLifecycleOptions {
  /**
   * Told which fiber answers which request, and its request id, as the request starts (the deadline
   * interrupts the fiber and answers with that id).
   */
  readonly register?: (
    fiber: Fiber.Fiber<unknown, unknown>,
    request: HttpServerRequest,
    requestId: string
  ) => void
}

export const withRequestLifecycle =
  (options: RequestLifecycleOptions = {}) =>
  <E, R>(
    app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R | HttpServerRequest | HttpMetrics> =>
    Effect.withFiber((fiber) => {
      const request = Context.getUnsafe(fiber.context, HttpServerRequest)
      const metrics = Context.getUnsafe(fiber.context, HttpMetrics)
      const clock = fiber.getRef(Clock.Clock)
      const header = request.headers["x-request-id"]
      const requestId = acceptableRequestId(header) ? header : newRequestId()
      options.register?.(fiber, request, requestId)
      const startedAt = clock.monotonicTimeNanosUnsafe()
      const answer = (response: HttpServerResponse.HttpServerResponse) =>
        Effect.as(
          record(metrics, {
            requestId,
            method: request.method,
            path: pathOf(request.url),
            status: response.status,
            durationMs: Number(clock.monotonicTimeNanosUnsafe() - startedAt) / 1_000_000
          }),
          finished(response, requestId)
        )
      // HEAD takes the GET route (the router does so) and Node sends no body: RFC 9110 §9.1.
      return Effect.matchCauseEffect(Effect.annotateLogs(app, "requestId", requestId), {
        onSuccess: answer,
        onFailure: (cause) => Effect.flatMap(responseForCause(cause, request), answer)
      })
    })
