import { describe, expect, it } from "@effect/vitest"
import { issuesOf } from "@petstore/kernel/testing"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { defaultListLimit, ListLimit, listLimitDefault, listLimitMax, listLimitMin } from "../src/index.js"

const rule = "must be an integer from 1 to 100"

const decode = Schema.decodeUnknownResult(ListLimit)

const messagesOf = (input: unknown): ReadonlyArray<string> =>
  issuesOf(ListLimit, input).map((issue) => issue.message)

describe("ListLimit", () => {
  it("has the bounds and default of the contract", () => {
    expect([listLimitMin, listLimitMax, listLimitDefault]).toStrictEqual([1, 100, 20])
    expect(defaultListLimit).toBe(20)
    expect(Schema.is(ListLimit)(defaultListLimit)).toBe(true)
  })

  it("accepts every integer from 1 to 100, unchanged", () => {
    for (let n = 1; n <= 100; n++) {
      expect(Result.getOrThrow(decode(n))).toBe(n)
    }
  })

  it.each([
    ["0", 0],
    ["101", 101],
    ["1.5", 1.5],
    ["NaN", Number.NaN],
    ["-1", -1],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["1e3", 1e3],
    ["99.999", 99.999]
  ])("refuses %s with the plain rule (no clamping)", (_, n) => {
    expect(messagesOf(n)).toStrictEqual([rule])
  })

  it.each([
    ["the string 20", "20"],
    ["null", null],
    ["an array", [20, 30]]
  ])("refuses %s with the same rule", (_, input) => {
    expect(messagesOf(input)).toStrictEqual([rule])
  })

  it("names the field when used in a query schema", () => {
    expect(issuesOf(Schema.Struct({ limit: ListLimit }), { limit: 0 })).toStrictEqual([
      { _tag: "Filter", path: ["limit"], message: rule }
    ])
  })

  it("accepts exactly the integers of 1..100 among arbitrary numbers", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double(), fc.double({ min: 0, max: 101 })),
        (n) => {
          const expected = Number.isInteger(n) && n >= 1 && n <= 100
          expect(Result.isSuccess(decode(n))).toBe(expected)
        }
      ),
      { numRuns: 1000 }
    )
  })
})
