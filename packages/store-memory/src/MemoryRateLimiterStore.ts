/**
 * Rate-limit counters (`@effect/experimental`'s `RateLimiterStore`) in this process's memory, for a
 * service without Redis. Same arithmetic as the library's memory store, plus what it lacks: counters
 * that no longer hold anything are dropped. A token bucket that has refilled to its limit, or a fixed
 * window that has ended, is exactly what a new one would be; without the sweep the process kept one
 * counter for every API key and client address it had ever seen, so a client cycling through
 * addresses could grow its memory without bound.
 */
import { RateLimiter } from "@effect/experimental"
import { Clock, Duration, Effect, Layer } from "effect"

interface TokenBucket {
  tokens: number
  lastRefill: number
  limit: number
  refillMillis: number
}

interface WindowCounter {
  count: number
  expiresAt: number
}

/** Tokens the bucket holds at `now`, refills included (it never holds more than its limit). */
const tokensAt = (bucket: TokenBucket, now: number): number =>
  Math.min(bucket.limit, bucket.tokens + Math.floor((now - bucket.lastRefill) / bucket.refillMillis))

export interface MemoryRateLimiterStore {
  readonly store: RateLimiter.RateLimiterStore["Type"]
  /** How many counters are held right now (buckets and windows): what the sweep keeps bounded. */
  readonly size: () => number
}

export interface MemoryRateLimiterStoreOptions {
  /**
   * How often the counters are swept: at most once per this interval, by the first request after
   * it. Each sweep visits every counter, so it is kept well apart; by default a minute.
   */
  readonly sweepInterval?: Duration.DurationInput
}

export const make = (options: MemoryRateLimiterStoreOptions = {}): Effect.Effect<MemoryRateLimiterStore> =>
  Effect.map(Clock.currentTimeMillis, (startedAt) => {
    const sweepMillis = Duration.toMillis(options.sweepInterval ?? Duration.minutes(1))
    const buckets = new Map<string, TokenBucket>()
    const windows = new Map<string, WindowCounter>()
    let nextSweepAt = startedAt + sweepMillis

    const sweepIfDue = (now: number): void => {
      if (now < nextSweepAt) return
      nextSweepAt = now + sweepMillis
      for (const [key, bucket] of buckets) if (tokensAt(bucket, now) >= bucket.limit) buckets.delete(key)
      for (const [key, window] of windows) if (window.expiresAt <= now) windows.delete(key)
    }

    /** Counts at the current time, once any sweep due has run. */
    const countNow = <A>(count: (now: number) => A): Effect.Effect<A> =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        sweepIfDue(now)
        return count(now)
      })

    const store = RateLimiter.RateLimiterStore.of({
      fixedWindow: (request) =>
        countNow((now) => {
          const refillMillis = Duration.toMillis(request.refillRate)
          let window = windows.get(request.key)
          if (window === undefined || window.expiresAt <= now) {
            window = { count: 0, expiresAt: now }
            windows.set(request.key, window)
          }
          if (request.limit !== undefined && window.count + request.tokens > request.limit) {
            return [window.count + request.tokens, window.expiresAt - now] as const
          }
          window.count += request.tokens
          window.expiresAt += refillMillis * request.tokens
          return [window.count, window.expiresAt - now] as const
        }),
      tokenBucket: (request) =>
        countNow((now) => {
          const refillMillis = Duration.toMillis(request.refillRate)
          let bucket = buckets.get(request.key)
          if (bucket === undefined) {
            bucket = { tokens: request.limit, lastRefill: now, limit: request.limit, refillMillis }
            buckets.set(request.key, bucket)
          } else {
            bucket.limit = request.limit
            bucket.refillMillis = refillMillis
            const refills = Math.floor((now - bucket.lastRefill) / refillMillis)
            if (refills > 0) {
              bucket.tokens = Math.min(request.limit, bucket.tokens + refills)
              bucket.lastRefill += refills * refillMillis
            }
          }
          const left = bucket.tokens - request.tokens
          if (request.allowOverflow || left >= 0) bucket.tokens = left
          return left
        })
    })

    return { store, size: () => buckets.size + windows.size }
  })

export const layer: Layer.Layer<RateLimiter.RateLimiterStore> = Layer.effect(
  RateLimiter.RateLimiterStore,
  Effect.map(make(), ({ store }) => store)
)
