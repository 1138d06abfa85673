import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { ApiKeyId, addressBucket, keyBucket, RateLimits, rateLimitPolicies } from "../src/index.js"

describe("rate limit policies", () => {
  it("name the key's policy api-key and the address's client-address, with the chosen numbers", () => {
    const policies = rateLimitPolicies({ perKey: 5, perAddress: 2, window: Duration.seconds(10) })
    expect(policies.perKey).toEqual({ name: "api-key", limit: 5, window: Duration.seconds(10) })
    expect(policies.perAddress).toEqual({ name: "client-address", limit: 2, window: Duration.seconds(10) })
  })

  it.effect("are what RateLimits.layer provides", () =>
    Effect.gen(function* () {
      const options = { perKey: 10_000, perAddress: 2_000, window: Duration.seconds(60) }
      expect(yield* RateLimits).toEqual(rateLimitPolicies(options))
    }).pipe(
      Effect.provide(RateLimits.layer({ perKey: 10_000, perAddress: 2_000, window: Duration.seconds(60) }))
    )
  )

  it("count a key's requests apart from an address's", () => {
    const policies = {
      perKey: { name: "k", limit: 1, window: Duration.seconds(1) },
      perAddress: { name: "a", limit: 1, window: Duration.seconds(1) }
    }
    expect(keyBucket(policies, ApiKeyId.make("key_0000000000000001")).key).toBe("key:key_0000000000000001")
    expect(addressBucket(policies, "127.0.0.1").key).toBe("address:127.0.0.1")
  })
})
