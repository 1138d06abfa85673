/**
 * Where rate-limit counters live: in Redis when `REDIS_URL` names one (read in apps/config), so every
 * replica draws from the same buckets, and in this process's memory otherwise (counters that hold
 * nothing any more are swept). The Redis client fails fast instead of queueing while disconnected, so a Redis outage
 * costs a request at most `commandTimeout`, after which the limiter lets it through, and it
 * reconnects by itself.
 */
import { MemoryRateLimiterStore } from "@petstore/store-memory"
import { Effect, Layer, Option, Redacted } from "effect"
import { RateLimiter } from "effect/persistence"

/** ioredis options from a `redis://[user:password@]host[:port][/db]` (or `rediss://`) URL. */
const redisOptions = (url: URL) => ({
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
  // Reconnect forever, at most every 5 s.
  retryStrategy: (attempt: number) => Math.min(attempt * 200, 5_000)
})

/** Where this service's counters live in a Redis it may share with others. */
const keyPrefix = "petstore:ratelimit:"

/**
 * The Redis store. Its client is closed at shutdown without failing it: closing a client that lost
 * its Redis fails, and a service stopping while Redis is down must still exit cleanly.
 */
const redisStore = (url: URL): Layer.Layer<RateLimiter.RateLimiterStore> =>
  Layer.unwrap(
    // The Redis client (ioredis) is loaded only by a service that uses Redis: start-up does not pay for it.
    Effect.map(
      Effect.promise(() => import("./IoRedis.js")),
      (IoRedis) =>
        RateLimiter.layerStoreRedis({ prefix: keyPrefix }).pipe(
          Layer.provide(IoRedis.layer(redisOptions(url)))
        )
    )
  )

/** The counters in the Redis at `url` when there is one, else in this process's memory. */
export const rateLimitStoreLayer = (
  url: Option.Option<Redacted.Redacted<URL>>
): Layer.Layer<RateLimiter.RateLimiterStore> =>
  Option.match(url, {
    onNone: () => MemoryRateLimiterStore.layer,
    onSome: (url) => redisStore(Redacted.value(url))
  })
