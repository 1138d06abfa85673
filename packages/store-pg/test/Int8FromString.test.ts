import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { Int8FromString } from "../src/internal/Int8FromString.js"

describe("Int8FromString", () => {
  const decode = Schema.decodeUnknownEither(Int8FromString)

  it("decodes bigint text exactly within the safe range", () => {
    expect(decode("1")).toEqual(Either.right(1))
    expect(decode("9007199254740991")).toEqual(Either.right(9007199254740991))
    expect(decode("-9007199254740991")).toEqual(Either.right(-9007199254740991))
  })

  it("refuses what would be rounded, and what is not bigint text", () => {
    for (const text of ["9007199254740992", "9007199254740993", "99999999999999999999", "1.5", "x", 42]) {
      expect(Either.isLeft(decode(text))).toBe(true)
    }
  })
})
