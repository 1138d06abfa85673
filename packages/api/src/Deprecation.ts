/**
 * The headers a deprecated operation carries on every answer, 401 included: `Deprecation` (RFC 9745),
 * `Sunset` (RFC 8594) and a `Link` to its successor (RFC 8288), as the server sends them and as the
 * OpenAPI document states them. The dates are the domain's (`GetPetLifecycle`); nothing here repeats
 * them.
 */
import { getPetDeprecatedAt, getPetRemovedAt } from "@petstore/catalogue"
import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import { type DocumentedHeaders, responseHeader } from "./OpenApiDocument.js"

/** A day as people read it in documentation and messages: `2030-12-05`. */
const day = (date: Date): string => date.toISOString().slice(0, 10)

/** The day `GET /pets/{petId}` was deprecated. */
export const getPetDeprecationDay = day(getPetDeprecatedAt)

/** The day `GET /pets/{petId}` stops working. */
export const getPetRemovalDay = day(getPetRemovedAt)

const deprecation = `@${Math.floor(getPetDeprecatedAt.getTime() / 1000)}`
const sunset = getPetRemovedAt.toUTCString()
const successor = '</v1/pets>; rel="successor-version"'

export const getPetDeprecationHeaders: Readonly<Record<string, string>> = {
  deprecation,
  sunset,
  link: successor
}

/** `getPetDeprecationHeaders` in the OpenAPI document. */
export const getPetDeprecationDocumentation: DocumentedHeaders = {
  Deprecation: responseHeader(`RFC 9745: deprecated since ${getPetDeprecationDay}.`, deprecation),
  Sunset: responseHeader("RFC 8594: removed on this date.", sunset),
  Link: responseHeader("RFC 8288: the successor operation.", successor)
}

export class GetPetDeprecation extends HttpApiMiddleware.Service<GetPetDeprecation>()(
  "@petstore/api/GetPetDeprecation"
) {}
