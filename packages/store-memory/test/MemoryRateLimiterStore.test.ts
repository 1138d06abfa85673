import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { RateLimiter } from "effect/persistence"
import { TestClock } from "effect/testing"
import * as FastCheck from "fast-check"
import { MemoryRateLimiterStore } from "../src/index.js"

const limit = 5
const refillRate = Duration.millis(200)
const bucketRequest = (key: string) => ({ key, tokens: 1, limit, refillRate, allowOverflow: false })
const windowRequest = (key: string) => ({ key, tokens: 1, refillRate, limit })

/** A fresh library memory store each time (v4 would otherwise share one built layer between provides). */
const libraryStore = Effect.provide(RateLimiter.RateLimiterStore, RateLimiter.layerStoreMemory, {
  local: true
})

/** Requests at random moments from a few clients: how long to wait before each, and whose it is. */
const traffic = FastCheck.array(
  FastCheck.record({
    wait: FastCheck.integer({ min: 0, max: 700 }),
    client: FastCheck.integer({ min: 0, max: 3 })
  }),
  { maxLength: 80 }
)

/** Runs `effect` on a fresh test clock, outside any test's runtime (for a property's every run). */
const onTestClock = <A>(effect: Effect.Effect<A>): Promise<A> =>
  Effect.runPromise(Effect.provide(effect, TestClock.layer()))

/** Sends the same traffic to the library's store and to ours; the pairs of what each answered. */
const replay = (
  requests: ReadonlyArray<{ readonly wait: number; readonly client: number }>,
  sweepInterval: Duration.Input
) =>
  onTestClock(
    Effect.gen(function* () {
      const theirs = yield* libraryStore
      const ours = yield* MemoryRateLimiterStore.make({ sweepInterval })
      const answers: Array<readonly [readonly [number, number], readonly [number, number]]> = []
      for (const { client, wait } of requests) {
        yield* TestClock.adjust(Duration.millis(wait))
        const request = bucketRequest(`client-${client}`)
        answers.push([yield* theirs.tokenBucket(request), yield* ours.store.tokenBucket(request)])
      }
      return answers
    }).pipe(Effect.orDie)
  )

/** Adaptive limiting driven by responses: requests, and the 429s (or not) their answers carried. */
const adaptiveTraffic = FastCheck.array(
  FastCheck.record({
    // Now and then long enough for state to expire (a cooldown's end plus the minute of grace).
    wait: FastCheck.oneof(
      { arbitrary: FastCheck.integer({ min: 0, max: 1_500 }), weight: 9 },
      { arbitrary: FastCheck.integer({ min: 55_000, max: 70_000 }), weight: 1 }
    ),
    client: FastCheck.integer({ min: 0, max: 1 }),
    tokens: FastCheck.integer({ min: 1, max: 3 }),
    feedback: FastCheck.option(
      FastCheck.record({
        status: FastCheck.constantFrom(429, 429, 429, 200, 503),
        retryAfter: FastCheck.option(FastCheck.integer({ min: -10, max: 3_000 }), {
          nil: undefined,
          freq: 8
        }),
        staleEpoch: FastCheck.boolean()
      }),
      { nil: undefined }
    )
  }),
  // Long runs: a key goes through cooldown, learning and learned only after a few 429s.
  { minLength: 10, maxLength: 60, size: "max" }
)

type AdaptiveRequest = typeof adaptiveTraffic extends FastCheck.Arbitrary<Array<infer A>> ? A : never

/** Sends the same requests and feedback to the library's store and to ours; what each answered. */
const replayAdaptive = (requests: ReadonlyArray<AdaptiveRequest>, sweepInterval: Duration.Input) =>
  onTestClock(
    Effect.gen(function* () {
      const theirs = yield* libraryStore
      const ours = (yield* MemoryRateLimiterStore.make({ sweepInterval })).store
      const answers: Array<readonly [unknown, unknown]> = []
      for (const { client, feedback, tokens, wait } of requests) {
        yield* TestClock.adjust(Duration.millis(wait))
        const key = `client-${client}`
        const consume = { key, tokens, fallbackLimit: limit, fallbackWindow: Duration.seconds(1) }
        const [a, b] = [yield* theirs.adaptiveConsume(consume), yield* ours.adaptiveConsume(consume)]
        const plain = (result: RateLimiter.AdaptiveConsumeResult) => ({
          delay: Duration.toMillis(result.delay),
          epoch: result.epoch,
          phase: result.phase
        })
        answers.push([plain(a), plain(b)])
        if (feedback === undefined) continue
        const report = (epoch: number) => ({
          key,
          tokens,
          status: feedback.status,
          retryAfter: feedback.retryAfter === undefined ? undefined : Duration.millis(feedback.retryAfter),
          epoch: feedback.staleEpoch ? epoch + 1 : epoch
        })
        yield* theirs.adaptiveFeedback(report(a.epoch))
        yield* ours.adaptiveFeedback(report(b.epoch))
      }
      return answers
    }).pipe(Effect.orDie)
  )

describe("MemoryRateLimiterStore", () => {
  it("counts token buckets exactly as the library's memory store while nothing is swept", async () => {
    await FastCheck.assert(
      FastCheck.asyncProperty(traffic, async (requests) => {
        for (const [theirs, ours] of await replay(requests, Duration.days(1))) expect(ours).toEqual(theirs)
      }),
      { numRuns: 100 }
    )
  })

  it("never lets more through than the library's store when it sweeps: it counts exactly the same", async () => {
    // The library's store restarts a full bucket's refill interval at the request that finds it
    // full, and a bucket built again after a sweep starts its interval at that request too: so what
    // ours answers is not only within one token of the library's (ours <= theirs <= ours + 1, as
    // it was with Effect 3's store), it is the same answer.
    await FastCheck.assert(
      FastCheck.asyncProperty(traffic, async (requests) => {
        for (const [theirs, ours] of await replay(requests, Duration.millis(1))) {
          expect(ours[0]).toBeLessThanOrEqual(theirs[0])
          expect(ours[0]).toBeGreaterThanOrEqual(theirs[0] - 1)
          expect(ours).toEqual(theirs)
        }
      }),
      { numRuns: 100 }
    )
  })

  it("limits adaptively exactly as the library's memory store, swept or not", async () => {
    for (const sweepInterval of [Duration.days(1), Duration.millis(1)]) {
      await FastCheck.assert(
        FastCheck.asyncProperty(adaptiveTraffic, async (requests) => {
          for (const [theirs, ours] of await replayAdaptive(requests, sweepInterval))
            expect(ours).toEqual(theirs)
        }),
        { numRuns: 100 }
      )
    }
  })

  it.effect("drops buckets that have refilled, keeps the ones still drained", () =>
    Effect.gen(function* () {
      const { size, store } = yield* MemoryRateLimiterStore.make({ sweepInterval: Duration.seconds(10) })
      for (let client = 0; client < 100; client++)
        yield* store.tokenBucket(bucketRequest(`visitor-${client}`))
      for (let request = 0; request <= limit; request++) yield* store.tokenBucket(bucketRequest("greedy"))
      expect(size()).toBe(101)

      // Each visitor took one token, back after 200 ms; the greedy client is five tokens short
      // (one second) and keeps coming faster than its bucket refills.
      for (let second = 0; second < 10; second++) {
        yield* TestClock.adjust(Duration.seconds(1))
        yield* store.tokenBucket({ ...bucketRequest("greedy"), tokens: limit })
      }
      expect(size()).toBe(1)
      const [greedyLeft] = yield* store.tokenBucket(bucketRequest("greedy"))
      expect(greedyLeft).toBeLessThan(0)
      const [visitorLeft] = yield* store.tokenBucket(bucketRequest("visitor-7"))
      expect(visitorLeft).toBe(limit - 1)
      expect(size()).toBe(2)
    })
  )

  it.effect("does not sweep before its interval, so a burst of new clients costs no full scan each", () =>
    Effect.gen(function* () {
      const { size, store } = yield* MemoryRateLimiterStore.make({ sweepInterval: Duration.minutes(1) })
      for (let client = 0; client < 50; client++) yield* store.tokenBucket(bucketRequest(`visitor-${client}`))
      yield* TestClock.adjust(Duration.seconds(59))
      yield* store.tokenBucket(bucketRequest("late"))
      expect(size()).toBe(51)
      yield* TestClock.adjust(Duration.seconds(1))
      yield* store.tokenBucket(bucketRequest("later"))
      expect(size()).toBe(1)
    })
  )

  it.effect("counts fixed windows as the library does and drops the ones that ended", () =>
    Effect.gen(function* () {
      const theirs = yield* libraryStore
      const { size, store } = yield* MemoryRateLimiterStore.make({ sweepInterval: Duration.seconds(1) })
      for (let request = 0; request < limit + 2; request++) {
        expect(yield* store.fixedWindow(windowRequest("a"))).toStrictEqual(
          yield* theirs.fixedWindow(windowRequest("a"))
        )
      }
      yield* store.fixedWindow(windowRequest("b"))
      expect(size()).toBe(2)
      // Window "a" took five tokens (1 s to run out), "b" one (200 ms).
      yield* TestClock.adjust(Duration.millis(1_000))
      expect(yield* store.fixedWindow(windowRequest("c"))).toStrictEqual(
        yield* theirs.fixedWindow(windowRequest("c"))
      )
      expect(size()).toBe(1)
    })
  )

  it.effect("drops adaptive state once it has expired, keeps it while it still holds a cooldown", () =>
    Effect.gen(function* () {
      const { size, store } = yield* MemoryRateLimiterStore.make({ sweepInterval: Duration.seconds(1) })
      const consume = (key: string) =>
        store.adaptiveConsume({ key, tokens: 1, fallbackLimit: limit, fallbackWindow: Duration.seconds(1) })
      const tooMany = (key: string, retryAfter: Duration.Duration) =>
        store.adaptiveFeedback({ key, epoch: 0, tokens: 1, status: 429, retryAfter })
      yield* tooMany("short", Duration.seconds(1))
      yield* tooMany("long", Duration.minutes(10))
      expect(size()).toBe(2)
      expect((yield* consume("short")).phase).toBe("cooldown")

      // The short cooldown ended after 1 s and is kept a minute longer (the library's grace period).
      yield* TestClock.adjust(Duration.seconds(62))
      yield* consume("someone else")
      expect(size()).toBe(1)
      expect(yield* consume("short")).toEqual({ delay: Duration.zero, epoch: 0, phase: "inactive" })
      const long = yield* consume("long")
      expect(long.phase).toBe("cooldown")
      expect(Duration.toMillis(long.delay)).toBe(Duration.toMillis(Duration.minutes(10)) - 62_000)
    })
  )
})
