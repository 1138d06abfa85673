import { RateLimiter } from "@effect/experimental"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, FastCheck, TestClock, TestContext } from "effect"
import { MemoryRateLimiterStore } from "../src/index.js"

const limit = 5
const refillRate = Duration.millis(200)
const bucketRequest = (key: string) => ({ key, tokens: 1, limit, refillRate, allowOverflow: false })
const windowRequest = (key: string) => ({ key, tokens: 1, refillRate, limit })

const libraryStore = Effect.provide(RateLimiter.RateLimiterStore, RateLimiter.layerStoreMemory)

/** Requests at random moments from a few clients: how long to wait before each, and whose it is. */
const traffic = FastCheck.array(
  FastCheck.record({
    wait: FastCheck.integer({ min: 0, max: 700 }),
    client: FastCheck.integer({ min: 0, max: 3 })
  }),
  { maxLength: 80 }
)

/** Sends the same traffic to the library's store and to ours; the pairs of what each answered. */
const replay = (
  requests: ReadonlyArray<{ readonly wait: number; readonly client: number }>,
  sweepInterval: Duration.DurationInput
) =>
  Effect.gen(function* () {
    const theirs = yield* libraryStore
    const ours = yield* MemoryRateLimiterStore.make({ sweepInterval })
    const answers: Array<readonly [number, number]> = []
    for (const { client, wait } of requests) {
      yield* TestClock.adjust(Duration.millis(wait))
      const request = bucketRequest(`client-${client}`)
      answers.push([yield* theirs.tokenBucket(request), yield* ours.store.tokenBucket(request)])
    }
    return answers
  }).pipe(Effect.provide(TestContext.TestContext), Effect.runPromise)

describe("MemoryRateLimiterStore", () => {
  it("counts token buckets exactly as the library's memory store while nothing is swept", async () => {
    await FastCheck.assert(
      FastCheck.asyncProperty(traffic, async (requests) => {
        for (const [theirs, ours] of await replay(requests, Duration.days(1))) expect(ours).toBe(theirs)
      }),
      { numRuns: 100 }
    )
  })

  it("never lets more through than the library's store when it sweeps, and at most one token less", async () => {
    // A bucket built again after a sweep starts its refill clock at that request, the library's at
    // a refill boundary up to one interval (here 200 ms) earlier.
    await FastCheck.assert(
      FastCheck.asyncProperty(traffic, async (requests) => {
        for (const [theirs, ours] of await replay(requests, Duration.millis(1))) {
          expect(ours).toBeLessThanOrEqual(theirs)
          expect(ours).toBeGreaterThanOrEqual(theirs - 1)
        }
      }),
      { numRuns: 100 }
    )
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
      expect(yield* store.tokenBucket(bucketRequest("greedy"))).toBeLessThan(0)
      expect(yield* store.tokenBucket(bucketRequest("visitor-7"))).toBe(limit - 1)
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
})
