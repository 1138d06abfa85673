import { describe, expect, it } from "@effect/vitest"
import { Exit, Schema } from "effect"
import fc from "fast-check"
import { int8FromBigInt } from "../src/internal/Int8FromBigInt.js"
import { Int8FromBigInt } from "./rowSchemas.js"

describe("int8FromBigInt", () => {
  it("reads a bigint exactly within the safe range", () => {
    expect(int8FromBigInt(1n)).toBe(1)
    expect(int8FromBigInt(9007199254740991n)).toBe(9007199254740991)
    expect(int8FromBigInt(-9007199254740991n)).toBe(-9007199254740991)
  })

  it("refuses what would be rounded, and what is not a bigint", () => {
    for (const value of [
      9007199254740992n,
      9007199254740993n,
      -9007199254740992n,
      99999999999999999999n,
      "1",
      "9007199254740991",
      1.5,
      "x",
      42,
      null
    ]) {
      expect(int8FromBigInt(value)).toBeUndefined()
    }
  })

  it("agrees with the Schema it replaced on any value", () => {
    const decode = Schema.decodeUnknownExit(Int8FromBigInt)
    fc.assert(
      fc.property(
        fc.oneof(
          fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
          fc.bigInt({ min: -(2n ** 53n) - 2n, max: -(2n ** 53n) + 2n }),
          fc.bigInt({ min: 2n ** 53n - 2n, max: 2n ** 53n + 2n }),
          fc.anything()
        ),
        (value) => {
          const exit = decode(value)
          expect(int8FromBigInt(value)).toEqual(Exit.isSuccess(exit) ? exit.value : undefined)
        }
      ),
      { numRuns: 2_000 }
    )
  })
})
