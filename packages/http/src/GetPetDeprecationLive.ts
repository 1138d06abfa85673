/**
 * Puts the deprecation headers of `GET /pets/{petId}` on every one of its answers.
 */
import { HttpApp, HttpServerResponse } from "@effect/platform"
import { GetPetDeprecation, getPetDeprecationHeaders } from "@petstore/api"
import { Effect, Layer } from "effect"

export const GetPetDeprecationLive = Layer.succeed(
  GetPetDeprecation,
  HttpApp.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setHeaders(response, getPetDeprecationHeaders))
  )
)
