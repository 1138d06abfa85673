/**
 * The headers a deprecated operation carries on every answer, 401 included: `Deprecation` (RFC 9745),
 * `Sunset` (RFC 8594) and a `Link` to its successor (RFC 8288).
 */
import { getPetDeprecatedAt, getPetRemovedAt } from "@petstore/catalogue"
import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"

export const getPetDeprecationHeaders: Readonly<Record<string, string>> = {
  deprecation: `@${Math.floor(getPetDeprecatedAt.getTime() / 1000)}`,
  sunset: getPetRemovedAt.toUTCString(),
  link: '</v1/pets>; rel="successor-version"'
}

export class GetPetDeprecation extends HttpApiMiddleware.Service<GetPetDeprecation>()(
  "@petstore/api/GetPetDeprecation"
) {}
