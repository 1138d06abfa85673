/**
 * Turns every failure of a request into the one error body, `{code, message, status}`. This is the
 * only place where failures become responses, so no stack trace, SQL or internal detail can slip out
 * through a forgotten path: anything unrecognised is logged and answered as a plain 500.
 *
 * `HttpApi` encodes the errors an operation declares itself; what reaches this module is the rest: a
 * request it could not decode (a defect carrying `HttpApiSchemaError`), a path no route matches, a
 * body it could not read, an interruption, and anything unexpected.
 */
import {
  ApiError,
  apiError,
  apiErrorStatus,
  InternalError,
  InvalidRequest,
  MethodNotAllowed,
  maxRequestBodyBytes,
  NotFound,
  PayloadTooLarge,
  Unavailable,
  unavailableRetryAfterSeconds
} from "@petstore/api"
import { pathOf } from "@petstore/node-listener"
import { Cause, Effect, Schema, SchemaIssue } from "effect"
import * as HttpServerError from "effect/http/HttpServerError"
import type { HttpServerRequest } from "effect/http/HttpServerRequest"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import { HttpApiSchemaError } from "effect/http-api/HttpApiError"
import { allowedMethods } from "./AllowedMethods.js"
import { jsonResponse, noHeaders, type ResponseHeaders, withResponseHeaders } from "./ResponseHeaders.js"

const isApiError = Schema.is(ApiError)

/** The one error body, `{code, message, status}`. */
export const errorBody = (error: ApiError) => ({
  code: error.code,
  message: error.message,
  status: error.status
})

/** An error answer decided before an operation runs (a key or a rate limit), with its headers. */
export interface Refusal<E extends ApiError = ApiError> {
  readonly error: E
  readonly headers: ResponseHeaders
}

/**
 * The answers, without their headers, of errors made once and answered on many requests
 * (`prebuiltError`). A response is an immutable value: each answer is this one given its headers.
 */
const prebuiltResponses = new Map<ApiError, HttpServerResponse.HttpServerResponse>()

/**
 * Marks an error made once at startup and answered often (a missing key on every unauthenticated
 * request): its body is serialised and its response made now, not on each answer.
 */
export const prebuiltError = <E extends ApiError>(error: E): E => {
  prebuiltResponses.set(error, jsonResponse(JSON.stringify(errorBody(error)), error.status, noHeaders))
  return error
}

/** The `Retry-After` of a 503: how long to wait before retrying. */
export const retryAfterUnavailable = String(unavailableRetryAfterSeconds)

const unavailableStatus = apiErrorStatus(Unavailable)

/** Whether an answer of `status` with `headers` still lacks the `Retry-After` every 503 carries. */
export const lacksRetryAfter = (status: number, headers: Readonly<Record<string, string>>): boolean =>
  status === unavailableStatus && headers["retry-after"] === undefined

export const errorResponse = (
  error: ApiError,
  headers: ResponseHeaders = noHeaders
): HttpServerResponse.HttpServerResponse => {
  const answerHeaders = lacksRetryAfter(error.status, headers)
    ? { ...headers, "retry-after": retryAfterUnavailable }
    : headers
  const prebuilt = prebuiltResponses.get(error)
  if (prebuilt === undefined)
    return jsonResponse(JSON.stringify(errorBody(error)), error.status, answerHeaders)
  return withResponseHeaders(prebuilt, answerHeaders)
}

/** The answer to a refused request. */
export const refusalResponse = (refusal: Refusal): HttpServerResponse.HttpServerResponse =>
  errorResponse(refusal.error, refusal.headers)

/** `["limit"]` + "must be…" → "limit: must be…"; the body itself is called `body`. */
export const describeDecodeIssue = (issue: {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}) => {
  if (issue.path.length === 0) return "body: must be a JSON object with the documented fields"
  return `${issue.path.map(String).join(".")}: ${issue.message}`
}

/** A field that is absent reads `is required`; any other rule as its schema words it. */
const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1({
  leafHook: (issue) => (issue._tag === "MissingKey" ? "is required" : SchemaIssue.defaultLeafHook(issue))
})

/** The 400 of a request whose parameters, headers or body break `issue`; only the first problem is told. */
export const invalidRequestForIssue = (issue: SchemaIssue.Issue): InvalidRequest => {
  const first = formatIssues(issue).issues[0]
  const path = (first?.path ?? []).map((segment) => (typeof segment === "object" ? segment.key : segment))
  return apiError(
    InvalidRequest,
    "invalid_request",
    first === undefined ? "request: is malformed" : describeDecodeIssue({ path, message: first.message })
  )
}

/** The 400 of a request `HttpApi` could not decode. */
export const invalidRequestFor = (error: HttpApiSchemaError): InvalidRequest =>
  invalidRequestForIssue(error.cause.issue)

/** No route took the request: 404, or 405 with `Allow` when the path exists with other methods. */
export const routeNotFoundResponse = (request: HttpServerRequest): HttpServerResponse.HttpServerResponse => {
  const path = pathOf(request.url)
  const allowed = allowedMethods(path)
  // The method is allowed on this shape of path, yet no route took it (an undecodable segment such
  // as `%zz`): there is no such resource, rather than a wrong method.
  if (allowed.length === 0 || allowed.includes(request.method)) {
    return errorResponse(apiError(NotFound, "not_found", `no resource at ${path}`))
  }
  return errorResponse(
    apiError(
      MethodNotAllowed,
      "method_not_allowed",
      `${request.method} is not allowed on ${path}; allowed: ${allowed.join(", ")}`
    ),
    { allow: allowed.join(", ") }
  )
}

/** A body larger than the service takes, whether declared or found so as it is read. */
export const bodyTooLarge = apiError(
  PayloadTooLarge,
  "payload_too_large",
  `body: must be at most ${maxRequestBodyBytes} bytes`
)

/** A JSON body that does not parse. */
export const malformedJsonBody = apiError(InvalidRequest, "invalid_request", "body: must be valid JSON")

const internal = apiError(InternalError, "internal", "internal error")

const interrupted = errorResponse(apiError(Unavailable, "unavailable", "the request was interrupted"))

const tooLarge = errorResponse(bodyTooLarge)

const malformedJson = errorResponse(malformedJsonBody)

const unexpected = (cause: Cause.Cause<unknown>) =>
  Effect.as(Effect.logError("request failed unexpectedly", cause), errorResponse(internal))

/** The response for a request that failed with `cause`; unknown failures are logged, never shown. */
export const responseForCause = (
  cause: Cause.Cause<unknown>,
  request: HttpServerRequest
): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  if (Cause.hasInterruptsOnly(cause)) return Effect.succeed(interrupted)
  const reason = cause.reasons.find(Cause.isFailReason) ?? cause.reasons.find(Cause.isDieReason)
  if (reason === undefined) return unexpected(cause)
  const error = reason._tag === "Fail" ? reason.error : reason.defect
  if (isApiError(error)) return Effect.succeed(errorResponse(error))
  if (HttpApiSchemaError.is(error)) {
    // A response the server could not encode is its own fault, not the client's.
    if (error.kind === "Body" || error.kind === "ResponseHeaders") return unexpected(cause)
    return Effect.succeed(errorResponse(invalidRequestFor(error)))
  }
  if (HttpServerError.isHttpServerError(error)) {
    const serverError = error.reason
    if (serverError._tag === "RouteNotFound") return Effect.succeed(routeNotFoundResponse(request))
    if (serverError._tag === "RequestParseError") {
      return Effect.succeed(serverError.reason === "BodyTooLarge" ? tooLarge : malformedJson)
    }
  }
  return unexpected(cause)
}
