/**
 * The rate-limit counters in Redis: two stores (two replicas' clients) on one Redis draw from one
 * bucket per key, under the service's own prefix; a store whose Redis cannot be reached starts anyway
 * and fails every count at once instead of queueing it (the limiter then lets the request through);
 * and a Redis stopped under a running store is reconnected to by itself, the outage logged once as it
 * starts and once as it ends, nothing printed outside the log. Uses the Redis at
 * `PETSTORE_TEST_REDIS_URL` (`.ci/run` starts one), else one of its own (`@petstore/testing`'s
 * TestRedis: a container, or the machine's `redis-server`): fails, never skips, when there is none.
 */
import { randomUUID } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { LoopbackServer, TestRedis } from "@petstore/testing"
import { Context, Duration, Effect, Exit, Layer, Logger, Redacted, Result, Schedule, Scope } from "effect"
import { RateLimiter } from "effect/persistence"
import { Redis } from "ioredis"
import { vi } from "vitest"
import { RedisRateLimiterStore } from "../src/index.js"

const testTimeout = 60_000

/** Four requests per minute: a token back every 15 seconds. */
const request = (key: string) => ({
  key,
  tokens: 1,
  limit: 4,
  refillRate: Duration.seconds(15),
  allowOverflow: false
})

/** A key no other run of the tests uses. */
const freshKey = () => `test-${randomUUID()}`

/** A store on `url` with a Redis client of its own (as another replica's), closed with the scope. */
const storeOn = (url: string) =>
  Effect.map(
    Layer.build(Layer.fresh(RedisRateLimiterStore.layer({ url: Redacted.make(new URL(url)) }))),
    (built) => Context.get(built, RateLimiter.RateLimiterStore)
  )

/**
 * Waits until `store` counts: a client just made is still connecting, and fails fast meanwhile (its
 * commands are not queued). Counts on a key of its own, so no bucket of the test's is touched.
 */
const connected = (store: RateLimiter.RateLimiterStore["Service"]) =>
  store.tokenBucket(request(freshKey())).pipe(
    Effect.retry({ schedule: Schedule.spaced("50 millis"), times: 100 }),
    Effect.mapError(() => new Error("the store never reached its Redis")),
    Effect.orDie
  )

/** Every message logged while the test runs, as text. */
const capturingLogs = () => {
  const logged: Array<string> = []
  const layer = Logger.layer([
    Logger.make((options) => {
      logged.push([options.message].flat().map(String).join(" "))
    })
  ])
  return { layer, count: (text: string) => logged.filter((line) => line.includes(text)).length }
}

/** How long `effect` took, and what came of it. */
const timed = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function* () {
    const started = Date.now()
    const result = yield* Effect.result(effect)
    return { result, millis: Date.now() - started }
  })

describe("RedisRateLimiterStore.redisOptions", () => {
  it("reads host, port, user, password and database from the URL, and fails fast while disconnected", () => {
    expect(RedisRateLimiterStore.redisOptions(new URL("redis://cache.internal"))).toMatchObject({
      host: "cache.internal",
      port: 6379,
      db: 0,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 500
    })
    const options = RedisRateLimiterStore.redisOptions(new URL("rediss://app%40ops:p%2Fw@10.0.0.5:6380/3"))
    expect(options).toMatchObject({
      host: "10.0.0.5",
      port: 6380,
      username: "app@ops",
      password: "p/w",
      db: 3
    })
    expect(options.tls).toEqual({})
    expect(RedisRateLimiterStore.redisOptions(new URL("redis://127.0.0.1:6379")).tls).toBeUndefined()
  })

  it("reconnects for as long as the process runs, backing off to every 5 seconds at most", () => {
    const { retryStrategy } = RedisRateLimiterStore.redisOptions(new URL("redis://127.0.0.1"))
    expect([1, 2, 10, 1_000].map((attempt) => retryStrategy?.(attempt))).toEqual([200, 400, 2_000, 5_000])
  })
})

describe("RedisRateLimiterStore on Redis", () => {
  it.live(
    "two stores on one Redis draw from one bucket per key, kept under petstore:ratelimit:",
    () =>
      Effect.gen(function* () {
        const { url } = yield* TestRedis.make
        const [a, b] = [yield* storeOn(url), yield* storeOn(url)]
        yield* connected(a)
        yield* connected(b)
        const key = freshKey()
        const left: Array<number> = []
        for (const store of [a, b, a, b, a]) left.push((yield* store.tokenBucket(request(key)))[0])
        expect(left).toEqual([3, 2, 1, 0, -1])

        const inspector = yield* Effect.acquireRelease(
          Effect.sync(() => new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 })),
          (client) => Effect.promise(() => client.quit())
        )
        const stored = yield* Effect.promise(() => inspector.keys(`*${key}*`))
        expect(stored.length).toBeGreaterThan(0)
        expect(stored.every((name) => name.startsWith(`${RedisRateLimiterStore.keyPrefix}${key}`))).toBe(true)
        yield* Effect.promise(() => inspector.del(...stored))
      }).pipe(Effect.scoped),
    testTimeout
  )

  it.live(
    "without its Redis, a store starts and fails every count at once, saying so once",
    () => {
      const logs = capturingLogs()
      return Effect.gen(function* () {
        const port = yield* LoopbackServer.freePort
        const store = yield* storeOn(`redis://127.0.0.1:${port}`)
        for (let attempt = 0; attempt < 5; attempt++) {
          const { millis, result } = yield* timed(store.tokenBucket(request(freshKey())))
          expect(Result.isFailure(result)).toBe(true)
          expect(millis).toBeLessThan(1_000)
        }
        // The client retries every 200, 400, 600… ms: several reconnections fail meanwhile.
        yield* Effect.sleep("1500 millis")
        expect(logs.count("the rate-limit Redis is unreachable")).toBe(1)
      }).pipe(Effect.scoped, Effect.provide(logs.layer))
    },
    testTimeout
  )

  it.live(
    "Redis stopped under a running store: counts fail at once; started again: it reconnects by itself",
    () => {
      const logs = capturingLogs()
      const printed = [
        vi.spyOn(process.stderr, "write"),
        vi.spyOn(console, "error"),
        vi.spyOn(console, "warn")
      ] as const
      return Effect.gen(function* () {
        // A Redis of the test's own on a port it keeps, stopped by closing its scope.
        const port = yield* LoopbackServer.freePort
        const startRedis = Effect.gen(function* () {
          const running = yield* Scope.make()
          yield* Scope.provide(running)(TestRedis.startOn(port))
          return running
        })
        let running = yield* startRedis
        yield* Effect.addFinalizer(() => Scope.close(running, Exit.void))

        const store = yield* storeOn(`redis://127.0.0.1:${port}`)
        yield* connected(store)
        const key = freshKey()
        expect((yield* store.tokenBucket(request(key)))[0]).toBe(3)

        yield* Scope.close(running, Exit.void)
        for (let attempt = 0; attempt < 5; attempt++) {
          const { millis, result } = yield* timed(store.tokenBucket(request(key)))
          expect(Result.isFailure(result)).toBe(true)
          expect(millis).toBeLessThan(1_500)
        }
        // Several reconnections fail meanwhile.
        yield* Effect.sleep("2 seconds")

        running = yield* startRedis
        // The client reconnects by itself (backing off at most 5 s): counting again, on a fresh bucket.
        let left: number | undefined
        for (let attempt = 0; attempt < 100 && left === undefined; attempt++) {
          const { result } = yield* timed(store.tokenBucket(request(key)))
          if (Result.isSuccess(result)) left = result.success[0]
          else yield* Effect.sleep("100 millis")
        }
        expect(left).toBe(3)

        // The outage is logged once as it starts and once as it ends; the failed reconnections in
        // between say nothing, in the log or outside it.
        expect(logs.count("the rate-limit Redis is unreachable")).toBe(1)
        expect(logs.count("the rate-limit Redis is reachable again")).toBe(1)
        const outside = printed.flatMap((spy) => spy.mock.calls.map((call) => call.map(String).join(" ")))
        expect(outside.filter((text) => /ioredis|ECONNREFUSED|Unhandled error event/i.test(text))).toEqual([])
      }).pipe(
        Effect.scoped,
        Effect.provide(logs.layer),
        Effect.ensuring(
          Effect.sync(() => {
            for (const spy of printed) spy.mockRestore()
          })
        )
      )
    },
    testTimeout
  )
})
