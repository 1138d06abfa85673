/**
 * The rules of the decision → answer mapping on their own: targets that are safe in a Location
 * header, and a page that never carries foreign markup. (The name a Host header asks for is
 * `DnsName.fromHost`'s, tested with it in `@petstore/custom-domains`.)
 */
import { describe, expect, it } from "@effect/vitest"
import { pathOf } from "@petstore/node-listener"
import { requestTarget } from "../src/EdgeRequest.js"
import { placeholderPage } from "../src/PlaceholderPage.js"

describe("requestTarget", () => {
  it("keeps an origin-form target as it is", () => {
    expect(requestTarget("/a/b?c=d&e=%2F")).toBe("/a/b?c=d&e=%2F")
    expect(requestTarget("//evil.example/x")).toBe("//evil.example/x")
  })

  it("keeps only the path and query of an absolute-form target", () => {
    expect(requestTarget("http://docs.example.com/a?b=c")).toBe("/a?b=c")
    expect(requestTarget("*")).toBe("/")
  })

  it("percent-encodes whatever is not visible ASCII", () => {
    expect(requestTarget("/é x")).toBe("/%C3%A9%20x")
  })

  it("gives the path without the query", () => {
    expect(pathOf("/.well-known/acme-challenge/abc?x=1")).toBe("/.well-known/acme-challenge/abc")
  })
})

describe("placeholderPage", () => {
  it("names the project, escaped", () => {
    const page = placeholderPage(`<script>alert("x")</script>&'`)
    expect(page).not.toContain("<script>")
    expect(page).toContain("&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;&#38;&#39;")
  })
})
