/**
 * Rate limiting of API requests: takes one token from the request's bucket through
 * `@effect/experimental`'s `RateLimiter` (token buckets, kept in memory or in Redis by the store the
 * app provides) and answers with the IETF httpapi ratelimit-headers (draft 11) on every limited
 * response: `RateLimit-Policy` and `RateLimit`, plus `Retry-After` on a 429.
 *
 * A store that fails (Redis unreachable) lets the request through: the service keeps answering rather
 * than going down with its limiter. The failure is logged and shown by `/readyz` until the store
 * answers again.
 */
import { RateLimiter } from "@effect/experimental"
import { RateLimited } from "@petstore/api"
import type { RateLimitBucket, RateLimitPolicy } from "@petstore/domain"
import { Context, Duration, Effect, Layer, Ref } from "effect"
import { HttpMetrics } from "./HttpMetrics.js"
import { appendResponseHeaders } from "./ResponseHeaders.js"

export interface RequestRateLimiterService {
  /** Takes a token from `bucket`, or fails with 429 `rate_limited` when it is empty. */
  readonly admit: (bucket: RateLimitBucket) => Effect.Effect<void, RateLimited>
  /** Whether the last attempt to count reached the store. */
  readonly storeReachable: Effect.Effect<boolean>
}

export class RequestRateLimiter extends Context.Tag("@petstore/http/RequestRateLimiter")<
  RequestRateLimiter,
  RequestRateLimiterService
>() {}

/** Whole seconds, rounded up: a client that waits `t` seconds never comes back too early. */
const seconds = (duration: Duration.Duration): number => Math.ceil(Duration.toMillis(duration) / 1000)

export const policyHeader = (policy: RateLimitPolicy): string =>
  `"${policy.name}";q=${policy.limit};w=${seconds(policy.window)}`

export const stateHeader = (policy: RateLimitPolicy, remaining: number, reset: Duration.Duration): string =>
  `"${policy.name}";r=${Math.max(0, remaining)};t=${seconds(reset)}`

export const layer: Layer.Layer<RequestRateLimiter, never, RateLimiter.RateLimiter | HttpMetrics> =
  Layer.effect(
    RequestRateLimiter,
    Effect.gen(function* () {
      const limiter = yield* RateLimiter.RateLimiter
      const metrics = yield* HttpMetrics
      const reachable = yield* Ref.make(true)

      const admit = ({ key, policy }: RateLimitBucket) =>
        limiter
          .consume({
            algorithm: "token-bucket",
            onExceeded: "fail",
            key,
            limit: policy.limit,
            window: policy.window
          })
          .pipe(
            Effect.matchEffect({
              onSuccess: (result) =>
                Effect.zipRight(
                  Ref.set(reachable, true),
                  appendResponseHeaders({
                    "ratelimit-policy": policyHeader(policy),
                    ratelimit: stateHeader(policy, result.remaining, result.resetAfter)
                  })
                ),
              onFailure: (error) => {
                if (error.reason !== "Exceeded") {
                  return Ref.getAndSet(reachable, false).pipe(
                    Effect.flatMap((wasReachable) =>
                      wasReachable
                        ? Effect.logWarning("rate limit store unreachable: requests are let through", error)
                        : Effect.void
                    )
                  )
                }
                const retryAfter = Duration.max(error.retryAfter, Duration.seconds(1))
                metrics.rateLimited(policy.name)
                return Effect.zipRight(
                  appendResponseHeaders({
                    "ratelimit-policy": policyHeader(policy),
                    ratelimit: stateHeader(policy, 0, retryAfter),
                    "retry-after": String(seconds(retryAfter))
                  }),
                  Effect.fail(
                    new RateLimited({
                      code: "rate_limited",
                      message: `too many requests: at most ${policy.limit} per ${seconds(policy.window)} s; retry in ${seconds(retryAfter)} s`,
                      status: 429
                    })
                  )
                )
              }
            })
          )

      return RequestRateLimiter.of({ admit, storeReachable: Ref.get(reachable) })
    })
  )
