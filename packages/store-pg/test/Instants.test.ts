import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { TestClock } from "effect/testing"
import { clockDate, dateFromIso, IsoFromDate, isoText } from "../src/internal/Instants.js"

describe("Instants", () => {
  it("spells a column's instant as the domain's ISO text and back, null staying null", () => {
    const iso = "2026-03-01T12:00:00.123Z"
    expect(isoText(new Date(iso))).toBe(iso)
    expect(dateFromIso(iso).getTime()).toBe(Date.parse(iso))
    expect(isoText(dateFromIso(iso))).toBe(iso)
    expect(isoText(null)).toBeNull()
    expect(dateFromIso(null)).toBeNull()
  })

  it("reads a column's Date as ISO text in a row's schema, and writes it back as a Date", () => {
    const iso = "2026-03-01T12:00:00.123Z"
    expect(Schema.decodeUnknownSync(IsoFromDate)(new Date(iso))).toBe(iso)
    expect(Schema.encodeSync(IsoFromDate)(iso)).toEqual(new Date(iso))
    expect(() => Schema.decodeUnknownSync(IsoFromDate)(iso)).toThrow()
  })

  it.effect("stamps a write with the Clock's time", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2026-03-01T12:00:00Z"))
      expect(isoText(yield* clockDate)).toBe("2026-03-01T12:00:00.000Z")
    })
  )
})
