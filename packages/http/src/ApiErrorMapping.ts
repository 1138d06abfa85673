/**
 * API-level middleware that sees every failure of the routes before the platform encodes it, and
 * answers with the service's own error body (the platform's default 400 body has another shape).
 */
import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { PetstoreApi } from "@petstore/api"
import { Effect } from "effect"
import { responseForCause } from "./ErrorResponse.js"

export const ApiErrorMapping = HttpApiBuilder.middleware(PetstoreApi, (app) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.catchAllCause(app, (cause) => responseForCause(cause, request))
  )
)
