import { describe, expect, it } from "vitest"
import { pathOf } from "../src/RequestTarget.js"

describe("pathOf", () => {
  it.each([
    ["/v1/pets", "/v1/pets"],
    ["/v1/pets?limit=2&status=sold", "/v1/pets"],
    ["/.well-known/acme-challenge/abc?x=1", "/.well-known/acme-challenge/abc"],
    ["/guide#install", "/guide"],
    ["/guide?x=1#install", "/guide"],
    ["/guide#frag?not-a-query", "/guide"],
    ["//host/x?y", "//host/x"],
    ["?only=query", ""],
    ["", ""]
  ])("%j has the path %j", (target, path) => {
    expect(pathOf(target)).toBe(path)
  })
})
