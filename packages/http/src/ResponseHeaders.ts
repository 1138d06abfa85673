/**
 * Response headers, two ways. A handler or middleware of `HttpApi` adds them to the response of the
 * request it runs in, whatever the response turns out to be (success or error body): a pre-response
 * handler, so the body is still encoded by the `HttpApi` schemas, and an error body made later still
 * gets them. Outside a request it does nothing, so the effects that add headers need no request in
 * their type. A route that builds its own JSON response puts them on it directly (`jsonResponse`),
 * which costs a fraction of a pre-response handler.
 */
import { Effect } from "effect"
import * as HttpEffect from "effect/http/HttpEffect"
import * as HttpServerResponse from "effect/http/HttpServerResponse"

export const appendResponseHeaders = (headers: Readonly<Record<string, string>>): Effect.Effect<void> => {
  const handler: HttpEffect.PreResponseHandler = (_request, response) =>
    Effect.succeed(HttpServerResponse.setHeaders(response, headers))
  return Effect.withFiber((fiber) => {
    HttpEffect.appendPreResponseHandlerUnsafe(fiber.context, handler)
    return Effect.void
  })
}

/** JSON bodies say their charset explicitly, as the contract promises. */
export const jsonContentType = "application/json; charset=utf-8"

/** Response headers as a route hands them over: lower-case names. */
export type ResponseHeaders = Readonly<Record<string, string>>

export const noHeaders: ResponseHeaders = {}

/**
 * A response of JSON text with `headers`. It is made without headers and then given them:
 * `HttpServerResponse.text` copies a `headers` option twice, the second time through
 * `Object.setPrototypeOf`, which costs about a microsecond a response, three times the rest.
 */
export const jsonResponse = (
  text: string,
  status: number,
  headers: ResponseHeaders
): HttpServerResponse.HttpServerResponse => {
  const response = HttpServerResponse.text(text, { status, contentType: jsonContentType })
  return withResponseHeaders(response, headers)
}

/** `response` given `headers` too (a response made once and answered with each request's headers). */
export const withResponseHeaders = (
  response: HttpServerResponse.HttpServerResponse,
  headers: ResponseHeaders
): HttpServerResponse.HttpServerResponse =>
  headers === noHeaders ? response : HttpServerResponse.setHeaders(response, headers)
