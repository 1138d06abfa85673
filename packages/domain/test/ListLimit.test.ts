import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"
import fc from "fast-check"
import { defaultListLimit, ListLimit, listLimitDefault, listLimitMax, listLimitMin } from "../src/index.js"

const rule = "must be an integer from 1 to 100"

const decode = Schema.decodeUnknownEither(ListLimit)

const messagesOf = (input: unknown): ReadonlyArray<string> => {
  const result = decode(input)
  if (Either.isRight(result)) throw new Error(`expected ${String(input)} to be refused`)
  return ParseResult.ArrayFormatter.formatErrorSync(result.left).map((issue) => issue.message)
}

describe("ListLimit", () => {
  it("has the bounds and default of the contract", () => {
    expect([listLimitMin, listLimitMax, listLimitDefault]).toStrictEqual([1, 100, 20])
    expect(defaultListLimit).toBe(20)
    expect(Schema.is(ListLimit)(defaultListLimit)).toBe(true)
  })

  it("accepts every integer from 1 to 100, unchanged", () => {
    for (let n = 1; n <= 100; n++) {
      expect(Either.getOrThrow(decode(n))).toBe(n)
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
    const result = Schema.decodeUnknownEither(Schema.Struct({ limit: ListLimit }))({ limit: 0 })
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) {
      expect(ParseResult.ArrayFormatter.formatErrorSync(result.left)).toStrictEqual([
        { _tag: "Refinement", path: ["limit"], message: rule }
      ])
    }
  })

  it("accepts exactly the integers of 1..100 among arbitrary numbers", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double(), fc.double({ min: 0, max: 101 })),
        (n) => {
          const expected = Number.isInteger(n) && n >= 1 && n <= 100
          expect(Either.isRight(decode(n))).toBe(expected)
        }
      ),
      { numRuns: 1000 }
    )
  })
})
