/**
 * What every request goes through, whatever its route: a request id (echoed or generated), a
 * server-side deadline, and one structured log line when it is answered.
 */
import { type HttpApp, HttpBody, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Unavailable } from "@petstore/api"
import { Clock, type Duration, Effect } from "effect"
import { errorResponse, responseForCause } from "./ErrorResponse.js"

/** A client's `X-Request-Id` is kept when it is short, visible ASCII; otherwise a new one is made. */
export const acceptableRequestId = (value: string | undefined): value is string =>
  value !== undefined && /^[\x21-\x7E]{1,200}$/.test(value)

/** JSON bodies say their charset explicitly, as the contract promises. */
export const jsonContentType = "application/json; charset=utf-8"

const withJsonCharset = (response: HttpServerResponse.HttpServerResponse) =>
  response.body._tag === "Uint8Array" && response.body.contentType === "application/json"
    ? HttpServerResponse.setBody(response, HttpBody.uint8Array(response.body.body, jsonContentType))
    : response

export const withRequestLifecycle =
  (options: { readonly timeout: Duration.DurationInput }) =>
  <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<never, R> =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const header = request.headers["x-request-id"]
      const requestId = acceptableRequestId(header) ? header : globalThis.crypto.randomUUID()
      const startedAt = yield* Clock.currentTimeMillis
      const response = yield* app.pipe(
        Effect.catchAllCause((cause) => responseForCause(cause, request)),
        Effect.timeoutTo({
          duration: options.timeout,
          onSuccess: (response) => response,
          onTimeout: () =>
            errorResponse(
              new Unavailable({
                code: "unavailable",
                message: "the request took too long; retry later",
                status: 503
              })
            )
        }),
        Effect.annotateLogs("requestId", requestId)
      )
      const finishedAt = yield* Clock.currentTimeMillis
      yield* Effect.logInfo("request").pipe(
        Effect.annotateLogs({
          requestId,
          method: request.method,
          path: request.url.split("?")[0] ?? request.url,
          status: response.status,
          durationMs: finishedAt - startedAt
        })
      )
      return HttpServerResponse.setHeader(withJsonCharset(response), "x-request-id", requestId)
    })
