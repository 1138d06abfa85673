/**
 * The `Link` to a list's next page: the parameters in the order given, each value percent-encoded, so
 * that no value can end the URI reference or add a parameter of its own.
 */
import { describe, expect, it } from "@effect/vitest"
import { nextPageLink } from "../src/NextPageLink.js"

describe("nextPageLink", () => {
  it("names the next page with the parameters in order", () => {
    expect(
      nextPageLink("/v1/pets", [
        ["limit", 20],
        ["status", "sold"],
        ["after", 123]
      ])
    ).toBe('</v1/pets?limit=20&status=sold&after=123>; rel="next"')
    expect(nextPageLink("/v1/projects/docs/events", [["after", "9223372036854775807"]])).toBe(
      '</v1/projects/docs/events?after=9223372036854775807>; rel="next"'
    )
  })

  it("percent-encodes what would end the reference or start another parameter", () => {
    expect(nextPageLink("/v1/x", [["q", 'a b&c=d>; rel="prev"']])).toBe(
      '</v1/x?q=a%20b%26c%3Dd%3E%3B%20rel%3D%22prev%22>; rel="next"'
    )
  })
})
