/**
 * The rate limits the API reads from its environment: defaults, the variables, and the values it
 * refuses at start (with the rule each breaks); and the Redis their counters may live in.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Option, Redacted, Result } from "effect"
import { RateLimitConfig, RedisUrlConfig } from "../src/index.js"

const load = (env: Record<string, string>) =>
  Effect.result(RateLimitConfig).pipe(
    Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))
  )

describe("RateLimitConfig", () => {
  it.effect("defaults to 10,000 per key and 2,000 per address each minute", () =>
    Effect.gen(function* () {
      const options = Result.getOrThrow(yield* load({}))
      expect(options).toEqual({ perKey: 10_000, perAddress: 2_000, window: Duration.seconds(60) })
    })
  )

  it.effect("reads the limits and the window from the environment", () =>
    Effect.gen(function* () {
      const options = Result.getOrThrow(
        yield* load({
          PETSTORE_RATE_LIMIT_PER_KEY: "5",
          PETSTORE_RATE_LIMIT_PER_ADDRESS: "2",
          PETSTORE_RATE_LIMIT_WINDOW: "10 seconds"
        })
      )
      expect(options.perKey).toBe(5)
      expect(options.perAddress).toBe(2)
      expect(Duration.toMillis(options.window)).toBe(10_000)
    })
  )

  it.effect.each<readonly [string, string, string]>([
    ["PETSTORE_RATE_LIMIT_PER_KEY", "0", "must be an integer from 1 to 1000000"],
    ["PETSTORE_RATE_LIMIT_PER_KEY", "many", "PETSTORE_RATE_LIMIT_PER_KEY"],
    ["PETSTORE_RATE_LIMIT_PER_ADDRESS", "-1", "must be an integer from 1 to 1000000"],
    ["PETSTORE_RATE_LIMIT_WINDOW", "500 millis", "must be from 1 second to 1 day"],
    ["PETSTORE_RATE_LIMIT_WINDOW", "2 days", "must be from 1 second to 1 day"]
  ])("refuses %s=%s, saying %s", ([name, value, message]) =>
    Effect.gen(function* () {
      const loaded = yield* load({ [name]: value })
      expect(Result.isFailure(loaded)).toBe(true)
      if (Result.isFailure(loaded)) expect(String(loaded.failure)).toContain(message)
    })
  )
})

const redisUrlFrom = (env: Record<string, string>) =>
  Effect.result(RedisUrlConfig).pipe(
    Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))
  )

describe("RedisUrlConfig", () => {
  it.effect("unset or empty: none, the counters stay in memory", () =>
    Effect.gen(function* () {
      expect(Result.getOrThrow(yield* redisUrlFrom({}))).toEqual(Option.none())
      expect(Result.getOrThrow(yield* redisUrlFrom({ REDIS_URL: "" }))).toEqual(Option.none())
    })
  )

  it.effect.each([
    "redis://127.0.0.1:6379",
    "redis://user:pw@redis.internal/3",
    "rediss://redis.example.net"
  ])("reads %s, kept redacted", (text) =>
    Effect.gen(function* () {
      const url = Result.getOrThrow(yield* redisUrlFrom({ REDIS_URL: text }))
      expect(Option.map(url, (url) => Redacted.value(url).href)).toEqual(Option.some(new URL(text).href))
      expect(String(url)).not.toContain(new URL(text).hostname)
    })
  )

  it.effect.each(["http://127.0.0.1:6379", "127.0.0.1:6379", "cache-host", "redis-pw@localhost"])(
    "refuses %j, naming the variable and never showing its text",
    (text) =>
      Effect.gen(function* () {
        const loaded = yield* redisUrlFrom({ REDIS_URL: text })
        expect(Result.isFailure(loaded)).toBe(true)
        if (Result.isFailure(loaded)) {
          const message = String(loaded.failure)
          expect(message).toContain("REDIS_URL")
          expect(message).toContain("must be a redis:// or rediss:// URL")
          expect(message).not.toContain(text)
        }
      })
  )
})
