/**
 * Puts the deprecation headers of `GET /pets/{petId}` on every one of its answers.
 */
import { GetPetDeprecation, getPetDeprecationHeaders } from "@petstore/api"
import { Layer } from "effect"
import { appendResponseHeaders } from "./ResponseHeaders.js"

export const GetPetDeprecationLive = Layer.succeed(
  GetPetDeprecation,
  appendResponseHeaders(getPetDeprecationHeaders)
)
