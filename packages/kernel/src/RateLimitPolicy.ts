/**
 * Rate limits: how many requests a caller may make per window, as token buckets (the bucket holds
 * `limit` requests and refills evenly over `window`). Authenticated requests count against their API
 * key; requests without a valid key count against the client's address, so a flood of bad keys is
 * limited too. The application chooses the numbers; counting is the limiter adapter's (memory or Redis).
 */
import { Context, type Duration, Layer } from "effect"
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

/** The numbers an application chooses: requests per key and per address in each window. */
export interface RateLimitOptions {
  readonly perKey: number
  readonly perAddress: number
  readonly window: Duration.Duration
}

/** The two policies, named as the `RateLimit-Policy` header shows them. */
export const rateLimitPolicies = (options: RateLimitOptions): RateLimitPolicies => ({
  perKey: { name: "api-key", limit: options.perKey, window: options.window },
  perAddress: { name: "client-address", limit: options.perAddress, window: options.window }
})

export class RateLimits extends Context.Service<RateLimits, RateLimitPolicies>()(
  "@petstore/kernel/RateLimits"
) {
  /** The policies for `options`. */
  static readonly layer = (options: RateLimitOptions): Layer.Layer<RateLimits> =>
    Layer.succeed(RateLimits, rateLimitPolicies(options))
}

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
