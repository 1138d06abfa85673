/**
 * What the OpenAPI document says beyond what `HttpApi` generates: the response headers the server
 * sends (`HttpApi` documents none of them) and each parameter's description next to it. They are
 * declared where they arise, as OpenAPI transforms the document is generated with (no text of the
 * generated document is searched or rewritten):
 * - `serviceResponseHeaders`, the API's transform: what every answer carries (`X-Request-Id`), what a
 *   status implies (a 401's challenge, a 503's and a 429's `Retry-After`, read from the error classes'
 *   statuses), and the rate-limit headers on every answer of an operation that is rate limited (one
 *   that can answer 429);
 * - `withResponseHeaders` and `withHeadersOnEveryResponse`, an operation's transform: what that one
 *   operation adds (the next page's `Link`, a created animal's `Location`, a deprecation).
 */
import { RateLimited, Unauthorized, Unavailable, unavailableRetryAfterSeconds } from "./ApiErrors.js"
import { apiErrorStatus } from "./ErrorBody.js"

type Json = Record<string, unknown>

/** Response headers as the OpenAPI document states them, by name. */
export type DocumentedHeaders = Readonly<Record<string, Json>>

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A response header of the document: what it means and an example of its value. */
export const responseHeader = (description: string, example?: string): Json => ({
  description,
  schema: { type: "string", ...(example === undefined ? {} : { example }) }
})

const requestIdHeaders: DocumentedHeaders = {
  "X-Request-Id": responseHeader("Echoes the request's X-Request-Id, or a generated one.")
}

const unauthorizedHeaders: DocumentedHeaders = {
  "WWW-Authenticate": responseHeader("RFC 6750 challenge.", 'Bearer realm="petstore", error="invalid_token"')
}

const unavailableHeaders: DocumentedHeaders = {
  "Retry-After": responseHeader("Seconds to wait before retrying.", String(unavailableRetryAfterSeconds))
}

/** IETF httpapi ratelimit-headers, draft 11: on every answer of an operation that is rate limited. */
const rateLimitHeaders: DocumentedHeaders = {
  "RateLimit-Policy": responseHeader(
    "The limit that applies: requests per window (`w`, seconds), per API key or, without a valid key, per client address.",
    '"api-key";q=10000;w=60'
  ),
  RateLimit: responseHeader(
    "What is left of it: requests (`r`) and seconds until the bucket is full again (`t`).",
    '"api-key";r=9999;t=1'
  )
}

const rateLimitedHeaders: DocumentedHeaders = {
  "Retry-After": responseHeader("Seconds until the next request is allowed.", "20")
}

const unauthorized = String(apiErrorStatus(Unauthorized))
const unavailable = String(apiErrorStatus(Unavailable))
const rateLimited = String(apiErrorStatus(RateLimited))

/** Each response of `operation` (an operation object of the document) with its status. */
const eachResponse = (operation: Json, f: (response: Json, status: string, responses: Json) => void) => {
  const responses = operation.responses
  if (!isObject(responses)) return
  for (const [status, response] of Object.entries(responses)) {
    if (isObject(response)) f(response, status, responses)
  }
}

const addHeaders = (response: Json, headers: DocumentedHeaders) => {
  response.headers = { ...(isObject(response.headers) ? response.headers : {}), ...headers }
}

/** An operation's transform: `headers` on the responses of the statuses it names. */
export const withResponseHeaders =
  (headers: Readonly<Record<number, DocumentedHeaders>>) =>
  (operation: Json): Json => {
    eachResponse(operation, (response, status) => {
      const added = headers[Number(status)]
      if (added !== undefined) addHeaders(response, added)
    })
    return operation
  }

/** An operation's transform: `headers` on every one of its responses. */
export const withHeadersOnEveryResponse =
  (headers: DocumentedHeaders) =>
  (operation: Json): Json => {
    eachResponse(operation, (response) => addHeaders(response, headers))
    return operation
  }

/** A parameter says what it is for, as its schema does. */
const describeParameter = (parameter: unknown) => {
  if (!isObject(parameter) || parameter.description !== undefined || !isObject(parameter.schema)) return
  if (typeof parameter.schema.description === "string") parameter.description = parameter.schema.description
}

/** What every operation's answers carry, after what the operation declares itself. */
const withServiceHeaders = (operation: Json) => {
  for (const parameter of Array.isArray(operation.parameters) ? operation.parameters : []) {
    describeParameter(parameter)
  }
  eachResponse(operation, (response, status, responses) => {
    response.headers = {
      ...requestIdHeaders,
      ...(isObject(response.headers) ? response.headers : {}),
      ...(status === unauthorized ? unauthorizedHeaders : {}),
      ...(status === unavailable ? unavailableHeaders : {}),
      // An operation that can answer 429 is rate limited, whatever it answers.
      ...(isObject(responses[rateLimited]) ? rateLimitHeaders : {}),
      ...(status === rateLimited ? rateLimitedHeaders : {})
    }
  })
}

/** The API's transform: `withServiceHeaders` on every operation of the generated document. */
export const serviceResponseHeaders = (document: Json): Json => {
  const paths = isObject(document.paths) ? document.paths : {}
  for (const pathItem of Object.values(paths)) {
    if (!isObject(pathItem)) continue
    for (const operation of Object.values(pathItem)) {
      if (isObject(operation)) withServiceHeaders(operation)
    }
  }
  return document
}
