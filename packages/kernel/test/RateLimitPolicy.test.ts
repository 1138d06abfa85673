import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Result } from "effect"
import { ApiKeyId, addressBucket, keyBucket, rateLimitConfig } from "../src/index.js"

const load = (variables: Record<string, string>) =>
  Effect.result(rateLimitConfig).pipe(
    Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: variables }))
  )

describe("rate limit policies", () => {
  it.effect("default to 10,000 per key and 2,000 per address each minute", () =>
    Effect.gen(function* () {
      const policies = Result.getOrThrow(yield* load({}))
      expect(policies.perKey).toEqual({ name: "api-key", limit: 10_000, window: Duration.seconds(60) })
      expect(policies.perAddress).toEqual({
        name: "client-address",
        limit: 2_000,
        window: Duration.seconds(60)
      })
    })
  )

  it.effect("read the limits and the window from the environment", () =>
    Effect.gen(function* () {
      const policies = Result.getOrThrow(
        yield* load({
          PETSTORE_RATE_LIMIT_PER_KEY: "5",
          PETSTORE_RATE_LIMIT_PER_ADDRESS: "2",
          PETSTORE_RATE_LIMIT_WINDOW: "10 seconds"
        })
      )
      expect(policies.perKey.limit).toBe(5)
      expect(policies.perAddress.limit).toBe(2)
      expect(Duration.toMillis(policies.perKey.window)).toBe(10_000)
    })
  )

  it.effect.each<readonly [string, string]>([
    ["PETSTORE_RATE_LIMIT_PER_KEY", "0"],
    ["PETSTORE_RATE_LIMIT_PER_KEY", "many"],
    ["PETSTORE_RATE_LIMIT_PER_ADDRESS", "-1"],
    ["PETSTORE_RATE_LIMIT_WINDOW", "500 millis"],
    ["PETSTORE_RATE_LIMIT_WINDOW", "2 days"]
  ])("refuse %s=%s", ([name, value]) =>
    Effect.gen(function* () {
      expect(Result.isFailure(yield* load({ [name]: value }))).toBe(true)
    })
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
