/**
 * Rate-limit counters (`effect/persistence` RateLimiter's `RateLimiterStore`) in this process's
 * memory, for a service without Redis. Same arithmetic as the library's memory store
 * (`RateLimiter.layerStoreMemory`), plus what it lacks: counters that no longer hold anything are
 * dropped. A token bucket that has refilled to its limit, a fixed window that has ended, or adaptive
 * state past its expiry is exactly what a new one would be; without the sweep the process kept one
 * counter for every API key and client address it had ever seen, so a client cycling through
 * addresses could grow its memory without bound.
 */
import { Clock, Duration, Effect, Layer } from "effect"
import { RateLimiter } from "effect/persistence"

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

interface AdaptiveState {
  phase: RateLimiter.AdaptivePhase
  epoch: number
  cooldownUntil: number
  learningStartedAt: number
  observedTokens: number
  learnedLimit: number
  learnedWindowMillis: number
  expiresAt: number
}

// The library's own bounds for adaptive state (not exported), so both stores answer alike.
const adaptiveStateTtlGraceMillis = 60_000
const adaptiveStateMaxWindowMillis = 60 * 60 * 1_000

const clampAdaptiveDurationMillis = (millis: number): number =>
  Number.isNaN(millis) || millis <= 0 ? 1 : Math.min(millis, adaptiveStateMaxWindowMillis)

/** Tokens the bucket holds at `now`, refills included (it never holds more than its limit). */
const tokensAt = (bucket: TokenBucket, now: number): number =>
  Math.min(bucket.limit, bucket.tokens + Math.floor((now - bucket.lastRefill) / bucket.refillMillis))

/** Waiting until `cooldownUntil` after a 429, with nothing learned (kept until a grace period after). */
const cooldown = (epoch: number, cooldownUntil: number): AdaptiveState => ({
  phase: "cooldown",
  epoch,
  cooldownUntil,
  learningStartedAt: 0,
  observedTokens: 0,
  learnedLimit: 0,
  learnedWindowMillis: 0,
  expiresAt: cooldownUntil + adaptiveStateTtlGraceMillis
})

export interface MemoryRateLimiterStore {
  readonly store: RateLimiter.RateLimiterStore["Service"]
  /** How many counters are held right now (buckets, windows, adaptive states): what the sweep keeps bounded. */
  readonly size: () => number
}

export interface MemoryRateLimiterStoreOptions {
  /**
   * How often the counters are swept: at most once per this interval, by the first request after
   * it. Each sweep visits every counter, so it is kept well apart; by default a minute.
   */
  readonly sweepInterval?: Duration.Input
}

export const make = (options: MemoryRateLimiterStoreOptions = {}): Effect.Effect<MemoryRateLimiterStore> =>
  Effect.map(Clock.currentTimeMillis, (startedAt) => {
    const sweepMillis = Duration.toMillis(
      Duration.fromInputUnsafe(options.sweepInterval ?? Duration.minutes(1))
    )
    const buckets = new Map<string, TokenBucket>()
    const windows = new Map<string, WindowCounter>()
    const adaptive = new Map<string, AdaptiveState>()
    let nextSweepAt = startedAt + sweepMillis

    const sweepIfDue = (now: number): void => {
      if (now < nextSweepAt) return
      nextSweepAt = now + sweepMillis
      for (const [key, bucket] of buckets) if (tokensAt(bucket, now) >= bucket.limit) buckets.delete(key)
      for (const [key, window] of windows) if (window.expiresAt <= now) windows.delete(key)
      for (const [key, state] of adaptive) if (state.expiresAt <= now) adaptive.delete(key)
    }

    // A limiter asks with the same few refill rates, as `Duration`s, on every request: the last one's
    // milliseconds are kept, since a rate of a fraction of a millisecond is held as `bigint` nanoseconds.
    let lastRefillRate: Duration.Duration | undefined
    let lastRefillMillis = 0
    const refillMillisOf = (refillRate: Duration.Duration): number => {
      if (refillRate !== lastRefillRate) {
        lastRefillMillis = Duration.toMillis(refillRate)
        lastRefillRate = refillRate
      }
      return lastRefillMillis
    }

    /** Counts at the current time, once any sweep due has run. */
    const countNow = <A>(count: (now: number) => A): Effect.Effect<A> =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        sweepIfDue(now)
        return count(now)
      })

    /** The key's adaptive state, unless it has expired (then it is as if there were none). */
    const adaptiveState = (key: string, now: number): AdaptiveState | undefined => {
      const state = adaptive.get(key)
      if (state === undefined || state.expiresAt > now) return state
      adaptive.delete(key)
      return undefined
    }

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
          const refillMillis = refillMillisOf(request.refillRate)
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
          // A full bucket's refill interval starts now: so a swept bucket, built again, is the same.
          if (bucket.tokens >= request.limit) bucket.lastRefill = now
          const left = bucket.tokens - request.tokens
          if (request.allowOverflow || left >= 0) bucket.tokens = left
          return [left, Math.max(0, now - bucket.lastRefill)] as const
        }),
      adaptiveConsume: (request) =>
        countNow((now): RateLimiter.AdaptiveConsumeResult => {
          const state = adaptiveState(request.key, now)
          if (state === undefined) return { delay: Duration.zero, epoch: 0, phase: "inactive" }
          switch (state.phase) {
            case "cooldown": {
              if (state.cooldownUntil > now) {
                return {
                  delay: Duration.millis(state.cooldownUntil - now),
                  epoch: state.epoch,
                  phase: "cooldown"
                }
              }
              state.phase = "learning"
              state.epoch += 1
              state.learningStartedAt = now
              state.observedTokens = request.tokens
              state.expiresAt = now + Duration.toMillis(request.fallbackWindow) + adaptiveStateTtlGraceMillis
              return { delay: Duration.zero, epoch: state.epoch, phase: "learning" }
            }
            case "learning": {
              state.observedTokens += request.tokens
              return { delay: Duration.zero, epoch: state.epoch, phase: "learning" }
            }
            case "learned": {
              const refillMillis = state.learnedWindowMillis / state.learnedLimit
              if (state.cooldownUntil <= now) {
                state.observedTokens = 0
                state.cooldownUntil = now
              }
              state.observedTokens += request.tokens
              state.cooldownUntil += refillMillis * request.tokens
              const ttl = state.cooldownUntil - now
              const elapsed = state.observedTokens * refillMillis - ttl
              const windowNumber = Math.floor((state.observedTokens - 1) / state.learnedLimit)
              const remaining = windowNumber * state.learnedWindowMillis - elapsed
              return {
                delay: remaining <= 0 ? Duration.zero : Duration.millis(remaining),
                epoch: state.epoch,
                phase: "learned"
              }
            }
            case "inactive":
              return { delay: Duration.zero, epoch: state.epoch, phase: state.phase }
          }
        }),
      adaptiveFeedback: (feedback) =>
        countNow((now): void => {
          if (feedback.status !== 429 || feedback.retryAfter === undefined) return
          const retryAfterMillis = clampAdaptiveDurationMillis(Duration.toMillis(feedback.retryAfter))
          const cooldownUntil = now + retryAfterMillis
          const state = adaptiveState(feedback.key, now)
          if (state === undefined) {
            if (feedback.epoch === 0) adaptive.set(feedback.key, cooldown(0, cooldownUntil))
            return
          }
          // Feedback on a request admitted under an earlier phase says nothing about this one.
          if (state.epoch !== feedback.epoch) return
          switch (state.phase) {
            case "cooldown": {
              state.cooldownUntil = Math.max(state.cooldownUntil, cooldownUntil)
              state.expiresAt = state.cooldownUntil + adaptiveStateTtlGraceMillis
              return
            }
            case "learning": {
              const acceptedTokens = state.observedTokens - feedback.tokens
              if (acceptedTokens <= 0) {
                adaptive.set(feedback.key, cooldown(state.epoch, cooldownUntil))
                return
              }
              const learnedWindowMillis = clampAdaptiveDurationMillis(
                now - state.learningStartedAt + retryAfterMillis
              )
              state.phase = "learned"
              state.epoch += 1
              state.cooldownUntil = state.learningStartedAt + learnedWindowMillis
              state.observedTokens = acceptedTokens
              state.learnedLimit = acceptedTokens
              state.learnedWindowMillis = learnedWindowMillis
              state.expiresAt = now + learnedWindowMillis + adaptiveStateTtlGraceMillis
              return
            }
            case "learned": {
              adaptive.set(feedback.key, cooldown(state.epoch, cooldownUntil))
              return
            }
            case "inactive":
              return
          }
        })
    })

    return { store, size: () => buckets.size + windows.size + adaptive.size }
  })

export const layer: Layer.Layer<RateLimiter.RateLimiterStore> = Layer.effect(
  RateLimiter.RateLimiterStore,
  Effect.map(make(), ({ store }) => store)
)
