/**
 * The retry schedule of webhook deliveries (`WebhookRetry`): doubling from the base, ±20% jitter, at
 * most an hour apart, and no attempt past 24 hours after the first.
 */
import { Duration, Option } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  defaultWebhookRetryBase,
  longestWebhookRetryInterval,
  nextWebhookAttemptAt,
  webhookRetryDelay,
  webhookRetryWindow
} from "../src/index.js"

const second = 1000
const hour = 3600 * second
const t0 = new Date("2027-03-01T12:00:00.000Z")
const sinceT0 = (millis: number) => new Date(t0.getTime() + millis)
const delayOf = (attempt: number, random: number, base: Duration.Input = defaultWebhookRetryBase) =>
  Duration.toMillis(webhookRetryDelay(base, attempt, random))

describe("webhookRetryDelay", () => {
  it("doubles from the base: 5 s, 10 s, 20 s, 40 s after attempts 1 to 4 (no jitter drawn)", () => {
    expect([1, 2, 3, 4].map((attempt) => delayOf(attempt, 0.5))).toStrictEqual([
      5 * second,
      10 * second,
      20 * second,
      40 * second
    ])
  })

  it("puts the 4th attempt about 35 s after the first, as the contract says", () => {
    expect(delayOf(1, 0.5) + delayOf(2, 0.5) + delayOf(3, 0.5)).toBe(35 * second)
  })

  it("draws the jitter from the random factor: −20% at 0, +20% just under 1", () => {
    expect(delayOf(1, 0)).toBe(4 * second)
    expect(delayOf(1, 0.25)).toBe(4.5 * second)
    expect(delayOf(1, 0.75)).toBe(5.5 * second)
    expect(delayOf(1, 0.999_999)).toBe(6 * second)
    expect(delayOf(3, 0)).toBe(16 * second)
    expect(delayOf(3, 0.999_999)).toBe(24 * second)
  })

  it("follows the configured base", () => {
    expect(delayOf(1, 0.5, "100 millis")).toBe(100)
    expect(delayOf(3, 0.5, "100 millis")).toBe(400)
    expect(delayOf(2, 0.5, "1 minute")).toBe(120 * second)
  })

  it("waits at most an hour, jitter included", () => {
    expect(Duration.toMillis(longestWebhookRetryInterval)).toBe(hour)
    // 5 s × 2^9 = 2560 s is still under the hour; 5 s × 2^10 = 5120 s is not.
    expect(delayOf(10, 0.5)).toBe(2560 * second)
    expect(delayOf(11, 0.5)).toBe(hour)
    expect(delayOf(11, 0.999_999)).toBe(hour)
    // A wait under the hour whose jitter would take it past the hour is cut to the hour.
    expect(delayOf(1, 0.999_999, "55 minutes")).toBe(hour)
    expect(delayOf(1, 0.5, "55 minutes")).toBe(55 * 60 * second)
    // The jitter still spreads capped waits, below the hour.
    expect(delayOf(11, 0)).toBe(0.8 * hour)
    expect(delayOf(1_000_000, 0.5)).toBe(hour)
  })

  it("stays within ±20% of the nominal wait and never exceeds the hour, for every attempt and draw", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.integer({ min: 1, max: 600_000 }),
        (attempt, random, baseMillis) => {
          const nominal = Math.min(baseMillis * 2 ** (attempt - 1), hour)
          const delay = delayOf(attempt, random, Duration.millis(baseMillis))
          expect(delay).toBeGreaterThanOrEqual(Math.floor(nominal * 0.8))
          expect(delay).toBeLessThanOrEqual(Math.min(Math.ceil(nominal * 1.2), hour))
        }
      )
    )
  })
})

describe("nextWebhookAttemptAt", () => {
  const retry = (attempt: number, attemptedAt: Date, random = 0.5) =>
    nextWebhookAttemptAt({
      base: defaultWebhookRetryBase,
      attempt,
      attemptedAt,
      firstAttemptAt: t0,
      random
    })

  it("comes the delay after the attempt that failed", () => {
    expect(retry(1, t0)).toStrictEqual(Option.some(sinceT0(5 * second)))
    expect(retry(2, sinceT0(5 * second))).toStrictEqual(Option.some(sinceT0(15 * second)))
    expect(retry(2, sinceT0(5 * second), 0)).toStrictEqual(Option.some(sinceT0(13 * second)))
  })

  it("may start exactly 24 hours after the first attempt, and not a millisecond later", () => {
    expect(Duration.toMillis(webhookRetryWindow)).toBe(24 * hour)
    expect(retry(30, sinceT0(23 * hour))).toStrictEqual(Option.some(sinceT0(24 * hour)))
    expect(retry(30, sinceT0(23 * hour + 1))).toStrictEqual(Option.none())
    // A shorter draw that would still fit is taken.
    expect(retry(30, sinceT0(23 * hour + 1), 0)).toStrictEqual(
      Option.some(sinceT0(23 * hour + 1 + 0.8 * hour))
    )
  })

  it("gives up on an attempt that itself started past the 24 hours (a worker that was down)", () => {
    expect(retry(3, sinceT0(25 * hour))).toStrictEqual(Option.none())
  })

  it("makes 33 attempts in the 24 hours with the default base and no jitter drawn", () => {
    const starts = [t0]
    for (;;) {
      const last = starts[starts.length - 1] ?? t0
      const next = retry(starts.length, last)
      if (Option.isNone(next)) break
      starts.push(next.value)
    }
    // 10 doubling waits (5 s to 2560 s: 5115 s in all), then 22 waits of an hour.
    expect(starts).toHaveLength(33)
    expect((starts[11]?.getTime() ?? 0) - t0.getTime()).toBe(5115 * second + hour)
    expect((starts[32]?.getTime() ?? 0) - t0.getTime()).toBe(5115 * second + 22 * hour)
    for (const [index, start] of starts.entries()) {
      if (index > 0) expect(start.getTime() - (starts[index - 1]?.getTime() ?? 0)).toBeLessThanOrEqual(hour)
    }
  })
})
