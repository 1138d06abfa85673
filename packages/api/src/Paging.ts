/**
 * What every list of the API pages alike (`GET /v1/pets`, a project's events): `limit` is the
 * catalogue's `ListLimit` (1 to 100, default 20) refused with one message, the cursor is `after`, and
 * the next page is in the `Link` header of the 200. Declared once, so that the lists cannot drift apart.
 */
import { ListLimit, listLimitMax, listLimitMin } from "@petstore/catalogue"
import { type DocumentedHeaders, responseHeader } from "./OpenApiDocument.js"
import { integerParameter } from "./QueryParameters.js"

/** The `limit` query parameter of a list. */
export const limitParameter = integerParameter(
  ListLimit,
  `must be an integer from ${listLimitMin} to ${listLimitMax}`
)

/** How a list's `limit` is documented: `items` names what a page holds. */
export const limitDescription = (items: string) => ({
  value: ListLimit,
  description: `How many ${items} a page holds at most (${listLimitMin} to ${listLimitMax}).`
})

/** The headers of a list's 200: `Link` to the next page when more `items` follow (`example` is one). */
export const nextPageHeaders = (
  items: string,
  example: string
): Readonly<Record<number, DocumentedHeaders>> => ({
  200: { Link: responseHeader(`RFC 8288: the next page, when more ${items} follow.`, example) }
})
