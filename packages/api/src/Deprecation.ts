/**
 * The headers a deprecated operation carries on every answer, 401 included: `Deprecation` (RFC 9745),
 * `Sunset` (RFC 8594) and a `Link` to its successor (RFC 8288).
 */
import { HttpApiMiddleware } from "@effect/platform"
import { getPetDeprecatedAt, getPetRemovedAt } from "@petstore/domain"

export const getPetDeprecationHeaders: Readonly<Record<string, string>> = {
  deprecation: `@${Math.floor(getPetDeprecatedAt.getTime() / 1000)}`,
  sunset: getPetRemovedAt.toUTCString(),
  link: '</v1/pets>; rel="successor-version"'
}

export class GetPetDeprecation extends HttpApiMiddleware.Tag<GetPetDeprecation>()(
  "@petstore/api/GetPetDeprecation",
  {}
) {}
