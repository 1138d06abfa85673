/**
 * Rate-limit counters (`effect/persistence` RateLimiter's `RateLimiterStore`) in Redis, so that every
 * replica of a service draws from the same buckets. The Redis client fails fast instead of queueing
 * while disconnected, so a Redis outage costs a request at most `commandTimeout`, after which the
 * limiter lets it through, and it reconnects by itself.
 */
import { Effect, Layer, Redacted } from "effect"
import { RateLimiter } from "effect/persistence"
import type { RedisOptions } from "ioredis"

export interface Options {
  /** `redis://[user:password@]host[:port][/db]` or `rediss://`: redacted, since it may hold a password. */
  readonly url: Redacted.Redacted<URL>
}

/** ioredis options from a `redis://[user:password@]host[:port][/db]` (or `rediss://`) URL. */
export const redisOptions = (url: URL): RedisOptions => ({
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
export const keyPrefix = "petstore:ratelimit:"

/**
 * The Redis store. Its client is closed at shutdown without failing it: closing a client that lost
 * its Redis fails, and a service stopping while Redis is down must still exit cleanly.
 */
export const layer = (options: Options): Layer.Layer<RateLimiter.RateLimiterStore> =>
  Layer.unwrap(
    // The Redis client (ioredis) is loaded only by a service that uses Redis: start-up does not pay for it.
    Effect.map(
      Effect.promise(() => import("./IoRedis.js")),
      (IoRedis) =>
        RateLimiter.layerStoreRedis({ prefix: keyPrefix }).pipe(
          Layer.provide(IoRedis.layer(redisOptions(Redacted.value(options.url))))
        )
    )
  )
