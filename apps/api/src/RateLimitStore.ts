/**
 * Where rate-limit counters live: in Redis when `REDIS_URL` is set, so every replica draws from the
 * same buckets, and in this process's memory otherwise (counters that hold nothing any more are
 * swept). The Redis client fails fast instead of queueing while disconnected, so a Redis outage
 * costs a request at most `commandTimeout`, after which the limiter lets it through, and it
 * reconnects by itself.
 */
import { RateLimiter } from "@effect/experimental"
import { MemoryRateLimiterStore } from "@petstore/store-memory"
import { Config, type ConfigError, Effect, Exit, Layer, Option, Redacted, Scope } from "effect"

export const RedisUrlConfig = Config.redacted("REDIS_URL").pipe(Config.option)

/** ioredis options from a `redis://[user:password@]host[:port][/db]` (or `rediss://`) URL. */
export const redisOptions = (url: URL) => ({
  host: url.hostname,
  port: url.port === "" ? 6379 : Number(url.port),
  ...(url.username === "" ? {} : { username: decodeURIComponent(url.username) }),
  ...(url.password === "" ? {} : { password: decodeURIComponent(url.password) }),
  db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : 0,
  ...(url.protocol === "rediss:" ? { tls: {} } : {}),
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  connectTimeout: 1_000,
  commandTimeout: 500,
  // Reconnect forever, at most every 5 s: each failed attempt is also reported by ioredis.
  retryStrategy: (attempt: number) => Math.min(attempt * 200, 5_000),
  prefix: "petstore:ratelimit:"
})

const parseRedisUrl = (text: string): Effect.Effect<URL, Error> =>
  Effect.try({
    try: () => {
      const url = new URL(text)
      if (url.protocol !== "redis:" && url.protocol !== "rediss:") throw new Error("not redis")
      return url
    },
    catch: () => new Error("REDIS_URL: must be a redis:// or rediss:// URL")
  })

/**
 * The Redis store, whose client is closed at shutdown without failing it: closing a client that lost
 * its Redis rejects, and a service stopping while Redis is down must still exit cleanly.
 */
const redisStore = (url: URL) =>
  Layer.scoped(
    RateLimiter.RateLimiterStore,
    Effect.gen(function* () {
      const clientScope = yield* Scope.make()
      yield* Effect.addFinalizer(() =>
        Scope.close(clientScope, Exit.void).pipe(
          Effect.catchAllCause(() => Effect.logInfo("the rate-limit Redis connection was already closed"))
        )
      )
      // The Redis client (ioredis) is loaded only by a service that uses Redis: start-up does not pay for it.
      const RateLimiterRedis = yield* Effect.promise(() => import("@effect/experimental/RateLimiter/Redis"))
      return yield* Scope.extend(RateLimiterRedis.make(redisOptions(url)), clientScope)
    })
  )

export const rateLimitStoreLayer: Layer.Layer<RateLimiter.RateLimiterStore, Error | ConfigError.ConfigError> =
  Layer.unwrapEffect(
    Effect.flatMap(RedisUrlConfig, (url) =>
      Option.match(url, {
        onNone: () => Effect.succeed(MemoryRateLimiterStore.layer),
        onSome: (text) => Effect.map(parseRedisUrl(Redacted.value(text)), redisStore)
      })
    )
  )
