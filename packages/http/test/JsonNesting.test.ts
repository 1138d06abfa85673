import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { nestsDeeperThan } from "../src/JsonNesting.js"

/** The nesting of a parsed JSON value: how many arrays and objects the deepest value is inside. */
const depthOf = (value: unknown): number => {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf))
  if (typeof value === "object" && value !== null)
    return 1 + Math.max(0, ...Object.values(value).map(depthOf))
  return 0
}

describe("nestsDeeperThan", () => {
  it("agrees with the depth of the parsed value, for any JSON text and limit", () => {
    fc.assert(
      fc.property(fc.json({ depthSize: "large" }), fc.nat(12), (text, limit) => {
        expect(nestsDeeperThan(text, limit)).toBe(depthOf(JSON.parse(text)) > limit)
      }),
      { numRuns: 2_000 }
    )
  })

  it("counts arrays and objects alike, and nothing inside strings", () => {
    expect(nestsDeeperThan("[[{}]]", 3)).toBe(false)
    expect(nestsDeeperThan("[[{}]]", 2)).toBe(true)
    expect(nestsDeeperThan(`{"a":"[[[[{{{{"}`, 1)).toBe(false)
    expect(nestsDeeperThan(String.raw`["\"[[[", "\\", [1]]`, 1)).toBe(true)
    expect(nestsDeeperThan(String.raw`["\"[[[", "\\", 1]`, 1)).toBe(false)
  })

  it("stops at the limit on text that is not JSON", () => {
    expect(nestsDeeperThan("[".repeat(1_000_000), 64)).toBe(true)
    expect(nestsDeeperThan("]]]]", 0)).toBe(false)
  })
})
