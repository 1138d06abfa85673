/**
 * The API's rate limits, as the operator sets them, and where their counters live: in the Redis at
 * `REDIS_URL` when it is set, so every replica draws from the same buckets, else in the process's
 * memory.
 */
import type { RateLimitOptions } from "@petstore/kernel"
import { Config, Duration, Effect, Option, Redacted, Schema, SchemaIssue } from "effect"
import { Count, Period } from "./SettingRanges.js"

const rateLimitCount = (name: string, fallback: number) =>
  Config.schema(Count, name).pipe(Config.withDefault(fallback))

/**
 * `PETSTORE_RATE_LIMIT_PER_KEY` (default 10000) and `PETSTORE_RATE_LIMIT_PER_ADDRESS` (default 2000)
 * requests per `PETSTORE_RATE_LIMIT_WINDOW` (default 60 seconds): generous enough for any honest
 * client and its retries, low enough that one caller cannot take the service from the others.
 */
export const RateLimitConfig: Config.Config<RateLimitOptions> = Config.all({
  perKey: rateLimitCount("PETSTORE_RATE_LIMIT_PER_KEY", 10_000),
  perAddress: rateLimitCount("PETSTORE_RATE_LIMIT_PER_ADDRESS", 2_000),
  window: Config.schema(Period, "PETSTORE_RATE_LIMIT_WINDOW").pipe(Config.withDefault(Duration.seconds(60)))
})

const invalidRedisUrl = new Config.ConfigError(
  new Schema.SchemaError(
    new SchemaIssue.Pointer(
      ["REDIS_URL"],
      new SchemaIssue.InvalidValue({ message: "must be a redis:// or rediss:// URL" })
    )
  )
)

/** A `redis://` or `rediss://` URL; it may hold a password, so it stays redacted and is never shown. */
const parseRedisUrl = (
  text: Redacted.Redacted<string>
): Effect.Effect<Redacted.Redacted<URL>, Config.ConfigError> => {
  const value = Redacted.value(text)
  const url = URL.canParse(value) ? new URL(value) : undefined
  return url !== undefined && (url.protocol === "redis:" || url.protocol === "rediss:")
    ? Effect.succeed(Redacted.make(url))
    : Effect.fail(invalidRedisUrl)
}

/** `REDIS_URL` (`redis://[user:password@]host[:port][/db]`, or `rediss://`); unset, none: counters in memory. */
export const RedisUrlConfig: Config.Config<Option.Option<Redacted.Redacted<URL>>> = Config.Redacted(
  "REDIS_URL"
).pipe(
  Config.option,
  Config.mapEffect((text) =>
    Option.match(text, {
      onNone: () => Effect.succeed(Option.none()),
      onSome: (text) => Effect.map(parseRedisUrl(text), Option.some)
    })
  )
)
