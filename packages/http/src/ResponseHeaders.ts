/**
 * Headers a handler or middleware adds to the response of the request it runs in, whatever the
 * response turns out to be (success or error body): a pre-response handler, so the body is still
 * encoded by the `HttpApi` schemas.
 */
import { HttpApp, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"

export const appendResponseHeaders = (headers: Readonly<Record<string, string>>) =>
  HttpApp.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setHeaders(response, headers))
  )
