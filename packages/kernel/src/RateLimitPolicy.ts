/**
 * Rate limits: how many requests a caller may make per window, as token buckets (the bucket holds
 * `limit` requests and refills evenly over `window`). Authenticated requests count against their API
 * key; requests without a valid key count against the client's address, so a flood of bad keys is
 * limited too. The limits are configuration; counting is the limiter adapter's (memory or Redis).
 */
import { Config, Context, Duration, Layer, Schema } from "effect"
import type { ApiKeyId } from "./ApiKey.js"

export interface RateLimitPolicy {
  /** The policy's name in `RateLimit-Policy` and `RateLimit` headers. */
  readonly name: string
  /** Requests a full bucket holds. */
  readonly limit: number
  /** How long an empty bucket takes to fill again. */
  readonly window: Duration.Duration
}

export interface RateLimitPolicies {
  readonly perKey: RateLimitPolicy
  readonly perAddress: RateLimitPolicy
}

export class RateLimits extends Context.Service<RateLimits, RateLimitPolicies>()(
  "@petstore/kernel/RateLimits"
) {}

/** Where a request's tokens are taken from. */
export interface RateLimitBucket {
  readonly policy: RateLimitPolicy
  readonly key: string
}

export const keyBucket = (policies: RateLimitPolicies, keyId: ApiKeyId): RateLimitBucket => ({
  policy: policies.perKey,
  key: `key:${keyId}`
})

export const addressBucket = (policies: RateLimitPolicies, address: string): RateLimitBucket => ({
  policy: policies.perAddress,
  key: `address:${address}`
})

const limitConfig = (name: string, fallback: number) =>
  Config.schema(
    Schema.Int.check(
      Schema.makeFilter((n: number) => n >= 1 && n <= 1_000_000, {
        message: "must be an integer from 1 to 1000000"
      })
    ),
    name
  ).pipe(Config.withDefault(fallback))

const windowConfig = Config.schema(
  Schema.DurationFromString.check(
    Schema.makeFilter(
      (window: Duration.Duration) =>
        Duration.isGreaterThanOrEqualTo(window, Duration.seconds(1)) &&
        Duration.isLessThanOrEqualTo(window, Duration.days(1)),
      { message: "must be from 1 second to 1 day" }
    )
  ),
  "PETSTORE_RATE_LIMIT_WINDOW"
).pipe(Config.withDefault(Duration.seconds(60)))

/**
 * `PETSTORE_RATE_LIMIT_PER_KEY` (default 10000) and `PETSTORE_RATE_LIMIT_PER_ADDRESS` (default 2000)
 * requests per `PETSTORE_RATE_LIMIT_WINDOW` (default 60 seconds): generous enough for any honest
 * client and its retries, low enough that one caller cannot take the service from the others.
 */
export const rateLimitConfig: Config.Config<RateLimitPolicies> = Config.all({
  perKey: limitConfig("PETSTORE_RATE_LIMIT_PER_KEY", 10_000),
  perAddress: limitConfig("PETSTORE_RATE_LIMIT_PER_ADDRESS", 2_000),
  window: windowConfig
}).pipe(
  Config.map(({ perAddress, perKey, window }) => ({
    perKey: { name: "api-key", limit: perKey, window },
    perAddress: { name: "client-address", limit: perAddress, window }
  }))
)

export const rateLimitsLayer = Layer.effect(RateLimits, rateLimitConfig)
