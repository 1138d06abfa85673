/**
 * Rate limiting of API requests: takes one token from the request's bucket through `effect`'s
 * persistence `RateLimiter` (token buckets, kept in memory or in Redis by the `RateLimiterStore` the
 * app provides) and answers with the IETF httpapi ratelimit-headers (draft 11) on every limited
 * response: `RateLimit-Policy` and `RateLimit`, plus `Retry-After` on a 429.
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

export const stateHeader = (policy: RateLimitPolicy, remaining: number, reset: Duration.Duration): string =>
  `"${policy.name}";r=${Math.max(0, remaining)};t=${seconds(reset)}`

const oneSecond = Duration.seconds(1)

/** What the limiter makes once per policy: its `RateLimit-Policy` header and its 429. */
interface PolicyEntry {
  readonly header: string
  readonly tooMany: (retryAfter: Duration.Duration) => RateLimited
}

export const layer: Layer.Layer<RequestRateLimiter, never, RateLimiter.RateLimiter | HttpMetrics> =
  Layer.effect(
    RequestRateLimiter,
    Effect.gen(function* () {
      const limiter = yield* RateLimiter.RateLimiter
      const metrics = yield* HttpMetrics
      // One flag, read and written by requests of this process only: no `Ref` needed.
      let reachable = true
      // Policies are configuration, the same few objects on every request: their header is made once.
      const policies = new Map<RateLimitPolicy, PolicyEntry>()
      const entryOf = (policy: RateLimitPolicy): PolicyEntry => {
        let entry = policies.get(policy)
        if (entry === undefined) {
          const window = seconds(policy.window)
          entry = {
            header: policyHeader(policy),
            tooMany: (retryAfter) =>
              apiError(
                RateLimited,
                "rate_limited",
                `too many requests: at most ${policy.limit} per ${window} s; retry in ${seconds(retryAfter)} s`
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
            ratelimit: stateHeader(policy, 0, retryAfter),
            "retry-after": String(seconds(retryAfter))
          }
        })
      }

      const take = ({
        key,
        policy
      }: RateLimitBucket): Effect.Effect<ResponseHeaders, Refusal<RateLimited>> => {
        const entry = entryOf(policy)
        return Effect.matchEffect(
          limiter.consume({
            algorithm: "token-bucket",
            onExceeded: "fail",
            key,
            limit: policy.limit,
            window: policy.window
          }),
          {
            onSuccess: (result) => {
              reachable = true
              return Effect.succeed({
                "ratelimit-policy": entry.header,
                ratelimit: stateHeader(policy, result.remaining, result.resetAfter)
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
