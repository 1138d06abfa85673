import { describe, expect, it } from "@effect/vitest"
import { Clock, Duration, Effect } from "effect"
import { TestClock } from "effect/testing"
import fc from "fast-check"
import {
  deadlineFrom,
  firstRecheckAfter,
  longestRecheckInterval,
  nextCheckAt,
  verificationWindow,
  windowStartOf
} from "../src/index.js"

const second = 1000
const minute = 60 * second
const hour = 60 * minute
const start = new Date("2027-03-01T12:00:00.000Z")
const deadline = deadlineFrom(start)
const at = (offset: number) => new Date(start.getTime() + offset)

describe("the verification window", () => {
  it("is 48 hours, first rechecked after 30 s, never less often than every 15 minutes", () => {
    expect(Duration.toMillis(verificationWindow)).toBe(48 * hour)
    expect(Duration.toMillis(firstRecheckAfter)).toBe(30 * second)
    expect(Duration.toMillis(longestRecheckInterval)).toBe(15 * minute)
  })

  it("closes 48 hours after it opens, and opens 48 hours before it closes", () => {
    expect(deadline.toISOString()).toBe("2027-03-03T12:00:00.000Z")
    expect(windowStartOf(deadline)).toStrictEqual(start)
    fc.assert(
      fc.property(fc.date({ min: new Date(0), max: new Date("2100-01-01T00:00:00Z") }), (date) => {
        expect(windowStartOf(deadlineFrom(date)).getTime()).toBe(date.getTime())
      })
    )
  })
})

describe("nextCheckAt", () => {
  it.each([
    ["right at the start", 0, 30 * second],
    ["10 s in", 10 * second, 30 * second],
    ["30 s in", 30 * second, 30 * second],
    ["45 s in", 45 * second, 45 * second],
    ["1 min in", minute, minute],
    ["8 min in", 8 * minute, 8 * minute],
    ["15 min in", 15 * minute, 15 * minute],
    ["15 min 1 ms in", 15 * minute + 1, 15 * minute],
    ["20 h in", 20 * hour, 15 * minute],
    ["47 h 45 min in (exactly 15 min left)", 47 * hour + 45 * minute, 15 * minute],
    ["47 h 50 min in (10 min left)", 47 * hour + 50 * minute, 10 * minute],
    ["1 ms before the deadline", 48 * hour - 1, 1],
    ["at the deadline", 48 * hour, 0]
  ])("%s: the next check is after %d ms → waits %d ms", (_, offset, wait) => {
    expect(nextCheckAt(deadline, at(offset)).getTime() - at(offset).getTime()).toBe(wait)
  })

  it("rechecks a clock that lags behind the window's start after 30 s", () => {
    expect(nextCheckAt(deadline, at(-5 * minute))).toStrictEqual(at(-5 * minute + 30 * second))
  })

  const offset = fc.integer({ min: 0, max: 48 * hour })

  it("never schedules past the deadline, nor before now, nor more than 15 minutes ahead", () => {
    fc.assert(
      fc.property(offset, (t) => {
        const now = at(t)
        const next = nextCheckAt(deadline, now).getTime()
        expect(next).toBeLessThanOrEqual(deadline.getTime())
        expect(next).toBeGreaterThanOrEqual(now.getTime())
        expect(next - now.getTime()).toBeLessThanOrEqual(15 * minute)
        expect(next - now.getTime()).toBe(
          Math.min(deadline.getTime() - now.getTime(), Math.max(30 * second, Math.min(t, 15 * minute)))
        )
        if (t < 48 * hour) expect(next).toBeGreaterThan(now.getTime())
      }),
      { numRuns: 2000 }
    )
  })

  it("waits at least 30 s unless the deadline comes first", () => {
    fc.assert(
      fc.property(offset, (t) => {
        const wait = nextCheckAt(deadline, at(t)).getTime() - at(t).getTime()
        expect(wait).toBeGreaterThanOrEqual(Math.min(30 * second, 48 * hour - t))
      })
    )
  })

  it("waits longer (or as long) the later a check happens, until the deadline caps it", () => {
    fc.assert(
      fc.property(offset, offset, (a, b) => {
        const [early, late] = a <= b ? [a, b] : [b, a]
        const nextEarly = nextCheckAt(deadline, at(early)).getTime()
        const nextLate = nextCheckAt(deadline, at(late)).getTime()
        expect(nextEarly).toBeLessThanOrEqual(nextLate)
        if (nextLate < deadline.getTime()) {
          expect(nextEarly - at(early).getTime()).toBeLessThanOrEqual(nextLate - at(late).getTime())
        }
      }),
      { numRuns: 2000 }
    )
  })

  it.effect(
    "checking at each scheduled time (TestClock) starts at 30 s, backs off to 15 min, ends at the deadline",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(start.getTime())
        const windowEnd = deadlineFrom(new Date(yield* Clock.currentTimeMillis))
        const intervals: Array<number> = []
        let now = yield* Clock.currentTimeMillis
        while (now < windowEnd.getTime()) {
          const next = nextCheckAt(windowEnd, new Date(now)).getTime()
          intervals.push(next - now)
          yield* TestClock.setTime(next)
          now = yield* Clock.currentTimeMillis
        }
        expect(now).toBe(windowEnd.getTime())
        expect(intervals.slice(0, 7)).toStrictEqual([
          30 * second,
          30 * second,
          60 * second,
          120 * second,
          240 * second,
          480 * second,
          15 * minute
        ])
        expect(intervals[0]).toBeLessThanOrEqual(30 * second)
        expect(Math.max(...intervals)).toBe(15 * minute)
        const uncapped = intervals.slice(0, -1)
        for (const [i, interval] of uncapped.entries()) {
          if (i > 0) expect(interval).toBeGreaterThanOrEqual(uncapped[i - 1] ?? 0)
        }
        expect(intervals.reduce((sum, interval) => sum + interval, 0)).toBe(48 * hour)
        // 48 h at no less than one check every 15 min: about 192 checks, not thousands.
        expect(intervals.length).toBeGreaterThan(190)
        expect(intervals.length).toBeLessThan(200)
      })
  )
})
