/**
 * The limiter takes its tokens from the store itself rather than through `RateLimiter.consume`: for
 * every policy and every moment, its answers (the headers, or the 429 and its headers) are those
 * `consume` gives, from twin stores that saw the same requests at the same times.
 */
import { describe, expect, it } from "@effect/vitest"
import type { RateLimitPolicy } from "@petstore/kernel"
import { MemoryRateLimiterStore } from "@petstore/store-memory"
import { Duration, Effect, Layer } from "effect"
import * as RateLimiter from "effect/persistence/RateLimiter"
import { TestClock } from "effect/testing"
import * as HttpMetrics from "../src/HttpMetrics.js"
import * as RequestRateLimiter from "../src/RequestRateLimiter.js"

/** What the limiter answered before: `consume`'s result turned into headers, or the 429's retry wait. */
const throughConsume = (limiter: RateLimiter.RateLimiter, policy: RateLimitPolicy, key: string) =>
  Effect.match(
    limiter.consume({
      algorithm: "token-bucket",
      onExceeded: "fail",
      key,
      limit: policy.limit,
      window: policy.window
    }),
    {
      onSuccess: (result) => ({
        "ratelimit-policy": RequestRateLimiter.policyHeader(policy),
        ratelimit: RequestRateLimiter.stateHeader(
          policy,
          result.remaining,
          Duration.toMillis(result.resetAfter)
        )
      }),
      onFailure: (error) => {
        if (error.reason._tag !== "RateLimitExceeded") return { failed: error.reason._tag }
        const retryAfter = Duration.max(error.reason.retryAfter, Duration.seconds(1))
        return {
          "ratelimit-policy": RequestRateLimiter.policyHeader(policy),
          ratelimit: RequestRateLimiter.stateHeader(policy, 0, Duration.toMillis(retryAfter)),
          "retry-after": String(Math.ceil(Duration.toMillis(retryAfter) / 1000))
        }
      }
    }
  )

const policies: ReadonlyArray<RateLimitPolicy> = [
  { name: "api-key", limit: 3, window: Duration.seconds(60) },
  { name: "client-address", limit: 1_000_000, window: Duration.seconds(60) },
  { name: "odd", limit: 7, window: Duration.millis(1_001) },
  { name: "fine", limit: 3, window: Duration.nanos(2_500_001n) },
  { name: "none", limit: 0, window: Duration.seconds(1) }
]

describe("RequestRateLimiter", () => {
  it.effect("answers as RateLimiter.consume does, request after request", () =>
    Effect.gen(function* () {
      const reference = yield* Effect.provide(
        RateLimiter.make,
        Layer.effect(
          RateLimiter.RateLimiterStore,
          Effect.map(MemoryRateLimiterStore.make(), (m) => m.store)
        )
      )
      const limiter = yield* Effect.provide(
        Effect.service(RequestRateLimiter.RequestRateLimiter),
        RequestRateLimiter.layer.pipe(
          Layer.provide(
            Layer.effect(
              RateLimiter.RateLimiterStore,
              Effect.map(MemoryRateLimiterStore.make(), (m) => m.store)
            )
          ),
          Layer.provide(HttpMetrics.layer)
        )
      )
      // Bursts, then waits of all sizes: whole and fractional refills, an empty bucket, a full one.
      const waits = [0, 0, 0, 0, 1, 7, 13, 143, 999, 0, 0, 20_000, 59_999, 0, 0, 0, 61_000, 3, 0]
      let answers = 0
      for (const wait of waits) {
        yield* TestClock.adjust(Duration.millis(wait))
        for (const policy of policies) {
          for (const key of ["a", "b"]) {
            const expected = yield* throughConsume(reference, policy, key)
            const actual = yield* Effect.match(limiter.take({ policy, key }), {
              onSuccess: (headers) => headers,
              onFailure: (refusal) => refusal.headers
            })
            expect(actual, `${policy.name} ${key} after ${wait} ms`).toEqual(expected)
            answers++
          }
        }
      }
      expect(answers).toBe(waits.length * policies.length * 2)
    })
  )

  it("rounds a wait in milliseconds as a Duration holds it", () => {
    const samples = [0, 1, 0.06, 0.5, 1000.0000000001, 999.9999999999, 1e-7, 12345.6789012345, 0.1 + 0.2]
    for (let i = 1; i < 2_000; i++) samples.push(i * 0.06, i * 0.0333333, i * 1.0000001)
    for (const millis of samples) {
      expect(RequestRateLimiter.durationMillis(millis), String(millis)).toBe(
        Duration.toMillis(Duration.millis(millis))
      )
    }
  })
})
