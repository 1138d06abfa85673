/**
 * Puts the deprecation headers of `GET /pets/{petId}` on every one of its answers.
 */
import { GetPetDeprecation, getPetDeprecationHeaders } from "@petstore/api"
import { Effect, Layer } from "effect"
import { appendResponseHeaders } from "./ResponseHeaders.js"

const withDeprecationHeaders = appendResponseHeaders(getPetDeprecationHeaders)

export const GetPetDeprecationLive = Layer.succeed(GetPetDeprecation, (httpEffect) =>
  Effect.andThen(withDeprecationHeaders, httpEffect)
)
