/**
 * Rate limiting of API requests: takes one token from the request's bucket (token buckets, kept in
 * memory or in Redis by `effect`'s persistence `RateLimiterStore` the app provides) and answers with
 * the IETF httpapi ratelimit-headers (draft 11) on every limited response: `RateLimit-Policy` and
 * `RateLimit`, plus `Retry-After` on a 429.
 *
 * The token is taken from the store directly, with `RateLimiter.consume`'s token-bucket arithmetic
 * done here on numbers: `consume` works out the policy's refill rate again on every call and builds
 * its answer as `Duration`s, which for a refill rate of a fraction of a millisecond are `bigint`
 * nanoseconds, about a third of what a refused request costs. The refill rate is worked out once
 * per policy, by `Duration` as `consume` does, and a test holds both to the same answers.
 *
 * A store that fails (Redis unreachable) lets the request through: the service keeps answering rather
 * than going down with its limiter. The failure is logged and shown by `/readyz` until the store
 * answers again.
 */
import { apiError, RateLimited } from "@petstore/api"
import type { RateLimitBucket, RateLimitPolicy } from "@petstore/kernel"
import { Context, Duration, Effect, Layer } from "effect"
import * as RateLimiter from "effect/persistence/RateLimiter"
import type { Refusal } from "./ErrorResponse.js"
import { HttpMetrics } from "./HttpMetrics.js"
import { appendResponseHeaders, noHeaders, type ResponseHeaders } from "./ResponseHeaders.js"

export interface RequestRateLimiterService {
  /**
   * Takes a token from `bucket`: the headers its answer carries (none while the store is
   * unreachable), or the 429 `rate_limited` and its headers when the bucket is empty. A route that
   * builds its own response puts them on it.
   */
  readonly take: (bucket: RateLimitBucket) => Effect.Effect<ResponseHeaders, Refusal<RateLimited>>
  /** `take`, the headers put on whatever response the current request gets (`HttpApi` handlers). */
  readonly admit: (bucket: RateLimitBucket) => Effect.Effect<void, RateLimited>
  /** Whether the last attempt to count reached the store. */
  readonly storeReachable: Effect.Effect<boolean>
}

export class RequestRateLimiter extends Context.Service<RequestRateLimiter, RequestRateLimiterService>()(
  "@petstore/http/RequestRateLimiter"
) {}

/** Whole seconds, rounded up: a client that waits `t` seconds never comes back too early. */
const seconds = (duration: Duration.Duration): number => Math.ceil(Duration.toMillis(duration) / 1000)

export const policyHeader = (policy: RateLimitPolicy): string =>
  `"${policy.name}";q=${policy.limit};w=${seconds(policy.window)}`

/** The bucket's state: tokens left, and whole seconds (rounded up) until it is full, from milliseconds. */
export const stateHeader = (policy: RateLimitPolicy, remaining: number, resetMillis: number): string =>
  `"${policy.name}";r=${Math.max(0, remaining)};t=${Math.ceil(resetMillis / 1000)}`

const oneSecond = Duration.seconds(1)

/**
 * `Duration.toMillis(Duration.millis(millis))` for a wait `consume` works out (never negative),
 * without building the `Duration`: a whole number of milliseconds as it is, anything else rounded to
 * the nanosecond, as `Duration` stores it.
 */
export const durationMillis = (millis: number): number => {
  if (Number.isNaN(millis)) return 0
  return Number.isInteger(millis) || !Number.isFinite(millis)
    ? millis
    : Math.round(millis * 1_000_000) / 1_000_000
}

/** What the limiter makes once per policy: its `RateLimit-Policy` header, its 429, its bucket's numbers. */
interface PolicyEntry {
  readonly header: string
  readonly tooMany: (retryAfter: Duration.Duration) => RateLimited
  /** The window as `consume` takes it: at least a millisecond. */
  readonly window: Duration.Duration
  /** How long one token takes to come back, and the same in milliseconds (as `consume` rounds it). */
  readonly refillRate: Duration.Duration
  readonly refillMillis: number
}

export const layer: Layer.Layer<RequestRateLimiter, never, RateLimiter.RateLimiterStore | HttpMetrics> =
  Layer.effect(
    RequestRateLimiter,
    Effect.gen(function* () {
      const store = yield* RateLimiter.RateLimiterStore
      const metrics = yield* HttpMetrics
      // One flag, read and written by requests of this process only: no `Ref` needed.
      let reachable = true
      // Policies are configuration, the same few objects on every request: their header is made once.
      const policies = new Map<RateLimitPolicy, PolicyEntry>()
      const entryOf = (policy: RateLimitPolicy): PolicyEntry => {
        let entry = policies.get(policy)
        if (entry === undefined) {
          const window = Duration.max(Duration.fromInputUnsafe(policy.window), Duration.millis(1))
          const refillRate = Duration.divideUnsafe(window, policy.limit)
          const windowSeconds = seconds(policy.window)
          entry = {
            header: policyHeader(policy),
            window,
            refillRate,
            refillMillis: Duration.toMillis(refillRate),
            tooMany: (retryAfter) =>
              apiError(
                RateLimited,
                "rate_limited",
                `too many requests: at most ${policy.limit} per ${windowSeconds} s; retry in ${seconds(retryAfter)} s`
              )
          }
          policies.set(policy, entry)
        }
        return entry
      }

      const refused = (
        policy: RateLimitPolicy,
        entry: PolicyEntry,
        retryAfterReported: Duration.Duration
      ): Effect.Effect<never, Refusal<RateLimited>> => {
        const retryAfter = Duration.max(retryAfterReported, oneSecond)
        metrics.rateLimited(policy.name)
        return Effect.fail({
          error: entry.tooMany(retryAfter),
          headers: {
            "ratelimit-policy": entry.header,
            ratelimit: stateHeader(policy, 0, Duration.toMillis(retryAfter)),
            "retry-after": String(seconds(retryAfter))
          }
        })
      }

      // `RateLimiter.consume` with one token, a token bucket and `onExceeded: "fail"`: the same
      // request to the store, the same answer worked out from what it returns.
      const take = ({
        key,
        policy
      }: RateLimitBucket): Effect.Effect<ResponseHeaders, Refusal<RateLimited>> => {
        const entry = entryOf(policy)
        // More tokens than the bucket holds: `consume` refuses without asking the store.
        if (policy.limit < 1) return refused(policy, entry, entry.window)
        return Effect.matchEffect(
          store.tokenBucket({
            key,
            tokens: 1,
            limit: policy.limit,
            refillRate: entry.refillRate,
            allowOverflow: false
          }),
          {
            onSuccess: ([remaining, elapsedMillis]) => {
              if (remaining < 0) {
                const wait = Math.ceil(-remaining) * entry.refillMillis - elapsedMillis
                return refused(policy, entry, Duration.millis(Math.max(0, wait)))
              }
              reachable = true
              const reset = Math.ceil(policy.limit - remaining) * entry.refillMillis - elapsedMillis
              return Effect.succeed({
                "ratelimit-policy": entry.header,
                ratelimit: stateHeader(policy, remaining, durationMillis(Math.max(0, reset)))
              })
            },
            onFailure: (error) => {
              if (error.reason._tag === "RateLimitExceeded") {
                return refused(policy, entry, error.reason.retryAfter)
              }
              const wasReachable = reachable
              reachable = false
              return wasReachable
                ? Effect.as(
                    Effect.logWarning("rate limit store unreachable: requests are let through", error),
                    noHeaders
                  )
                : Effect.succeed(noHeaders)
            }
          }
        )
      }

      const admit = (bucket: RateLimitBucket): Effect.Effect<void, RateLimited> =>
        Effect.matchEffect(take(bucket), {
          onSuccess: appendResponseHeaders,
          onFailure: (refusal) =>
            Effect.andThen(appendResponseHeaders(refusal.headers), Effect.fail(refusal.error))
        })

      return RequestRateLimiter.of({ take, admit, storeReachable: Effect.sync(() => reachable) })
    })
  )
