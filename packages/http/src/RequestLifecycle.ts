/**
 * What every request goes through, whatever its route: a request id (echoed or generated), every
 * failure turned into the one error body, and one structured log line and its metrics when it is
 * answered. The
 * server-side deadline is kept outside, by the server (RequestDeadline), which this registers with.
 */
import { type HttpApp, HttpBody, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Clock, Effect } from "effect"
import { responseForCause } from "./ErrorResponse.js"
import { HttpMetrics } from "./HttpMetrics.js"

/** A client's `X-Request-Id` is kept when it is short, visible ASCII; otherwise a new one is made. */
export const acceptableRequestId = (value: string | undefined): value is string =>
  value !== undefined && /^[\x21-\x7E]{1,200}$/.test(value)

/** The id of a request whose client sent none acceptable (or none could be read). */
export const newRequestId = (): string => globalThis.crypto.randomUUID()

/** JSON bodies say their charset explicitly, as the contract promises. */
export const jsonContentType = "application/json; charset=utf-8"

const withJsonCharset = (response: HttpServerResponse.HttpServerResponse) =>
  response.body._tag === "Uint8Array" && response.body.contentType === "application/json"
    ? HttpServerResponse.setBody(response, HttpBody.uint8Array(response.body.body, jsonContentType))
    : response

/** One log line per answered request, and its count and latency in the metrics. */
export const recordRequest = (fields: {
  readonly requestId: string
  readonly method: string
  readonly path: string
  readonly status: number
  readonly durationMs: number
}) =>
  Effect.flatMap(HttpMetrics, (metrics) => {
    metrics.observeRequest(fields)
    return Effect.logInfo("request").pipe(Effect.annotateLogs(fields))
  })

export const withRequestLifecycle =
  (options: { readonly register?: Effect.Effect<void, never, HttpServerRequest.HttpServerRequest> } = {}) =>
  <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<never, R | HttpMetrics> =>
    Effect.gen(function* () {
      if (options.register !== undefined) yield* options.register
      const request = yield* HttpServerRequest.HttpServerRequest
      const header = request.headers["x-request-id"]
      const requestId = acceptableRequestId(header) ? header : newRequestId()
      const startedAt = yield* Clock.currentTimeMillis
      const response = yield* app.pipe(
        Effect.catchAllCause((cause) => responseForCause(cause, request)),
        Effect.annotateLogs("requestId", requestId)
      )
      const finishedAt = yield* Clock.currentTimeMillis
      yield* recordRequest({
        requestId,
        method: request.method,
        path: request.url.split("?")[0] ?? request.url,
        status: response.status,
        durationMs: finishedAt - startedAt
      })
      return HttpServerResponse.setHeader(withJsonCharset(response), "x-request-id", requestId)
    })
