/**
 * Turns every failure of a request into the one error body, `{code, message, status}`. This is the
 * only place where failures become responses, so no stack trace, SQL or internal detail can slip out
 * through a forgotten path: anything unrecognised is logged and answered as a plain 500.
 */

import type { HttpServerRequest } from "@effect/platform"
import { HttpApiError, HttpServerError, HttpServerResponse } from "@effect/platform"
import {
  ApiError,
  InternalError,
  InvalidRequest,
  maxRequestBodyBytes,
  NotFound,
  PayloadTooLarge,
  Unavailable
} from "@petstore/api"
import { Cause, Effect, Option, Schema } from "effect"
import { allowedMethods } from "./AllowedMethods.js"

/** How long a client should wait before retrying after a 503. */
export const unavailableRetryAfterSeconds = 5

const isApiError = Schema.is(ApiError)

/** The one error body, `{code, message, status}`. */
export const errorBody = (error: ApiError) => ({
  code: error.code,
  message: error.message,
  status: error.status
})

export const errorResponse = (
  error: ApiError,
  headers: Readonly<Record<string, string>> = {}
): HttpServerResponse.HttpServerResponse => {
  const extra: Record<string, string> = { ...headers }
  if (error.status === 503 && extra["retry-after"] === undefined) {
    extra["retry-after"] = String(unavailableRetryAfterSeconds)
  }

  return HttpServerResponse.unsafeJson(errorBody(error), { status: error.status, headers: extra })
}

/** `["limit"]` + "must be…" → "limit: must be…"; the body itself is called `body`. */
export const describeDecodeIssue = (issue: {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}) => {
  if (issue.path.length === 0) return "body: must be a JSON object with the documented fields"
  const rule = issue.message === "is missing" ? "is required" : issue.message
  return `${issue.path.map(String).join(".")}: ${rule}`
}

const decodeErrorMessage = (error: HttpApiError.HttpApiDecodeError): string => {
  const first = error.issues[0]
  return first === undefined ? "request: is malformed" : describeDecodeIssue(first)
}

const isBodyTooLarge = (error: HttpServerError.RequestError): boolean =>
  error.cause instanceof Error && error.cause.message === "maxBytes exceeded"

const routeNotFoundResponse = (request: HttpServerRequest.HttpServerRequest) => {
  // The raw path, not a URL parse: `//host/...` would read as a host, and odd text make it throw.
  const path = request.url.split("?")[0] ?? ""
  const allowed = allowedMethods(path)
  // The method is allowed on this shape of path, yet no route took it (an undecodable segment such
  // as `%zz`): there is no such resource, rather than a wrong method.
  if (allowed.length === 0 || allowed.includes(request.method)) {
    return errorResponse(new NotFound({ code: "not_found", message: `no resource at ${path}`, status: 404 }))
  }
  return HttpServerResponse.unsafeJson(
    {
      code: "method_not_allowed",
      message: `${request.method} is not allowed on ${path}; allowed: ${allowed.join(", ")}`,
      status: 405
    },
    { status: 405, headers: { allow: allowed.join(", ") } }
  )
}

const internal = new InternalError({ code: "internal", message: "internal error", status: 500 })

/** The response for a request that failed with `cause`; unknown failures are logged, never shown. */
export const responseForCause = (
  cause: Cause.Cause<unknown>,
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  if (Cause.isInterruptedOnly(cause)) {
    return Effect.succeed(
      errorResponse(
        new Unavailable({ code: "unavailable", message: "the request was interrupted", status: 503 })
      )
    )
  }
  const failure = Option.orElse(Cause.failureOption(cause), () => Cause.dieOption(cause))
  if (Option.isSome(failure)) {
    const error = failure.value
    if (isApiError(error)) return Effect.succeed(errorResponse(error))
    if (error instanceof HttpApiError.HttpApiDecodeError) {
      return Effect.succeed(
        errorResponse(
          new InvalidRequest({ code: "invalid_request", message: decodeErrorMessage(error), status: 400 })
        )
      )
    }
    if (HttpServerError.isServerError(error)) {
      if (error._tag === "RouteNotFound") return Effect.succeed(routeNotFoundResponse(request))
      if (error._tag === "RequestError" && isBodyTooLarge(error)) {
        return Effect.succeed(
          errorResponse(
            new PayloadTooLarge({
              code: "payload_too_large",
              message: `body: must be at most ${maxRequestBodyBytes} bytes`,
              status: 413
            })
          )
        )
      }
      if (error._tag === "RequestError" && error.reason === "Decode") {
        return Effect.succeed(
          errorResponse(
            new InvalidRequest({ code: "invalid_request", message: "body: must be valid JSON", status: 400 })
          )
        )
      }
    }
  }
  return Effect.logError("request failed unexpectedly", cause).pipe(Effect.as(errorResponse(internal)))
}
