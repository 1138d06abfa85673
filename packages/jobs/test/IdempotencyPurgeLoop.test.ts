/**
 * The purge loop around `purgeExpiredIdempotencyKeys`: at start, then every interval, and a
 * failing purge does not stop the next.
 */
import { describe, expect, it } from "@effect/vitest"
import { IdempotencyRepository, idempotencyExpiredUpTo } from "@petstore/catalogue"
import { StorageError } from "@petstore/kernel"
import { Duration, Effect, Fiber, Layer, Ref } from "effect"
import { TestClock } from "effect/testing"
import { defaultIdempotencyPurge, runIdempotencyPurge } from "../src/IdempotencyPurgeLoop.js"

const t0 = Date.parse("2027-03-01T12:00:00.000Z")

/** Storage whose purge records when it was asked (and up to when), and fails while `failing` is set. */
const recordingPurges = Effect.gen(function* () {
  const purges = yield* Ref.make<ReadonlyArray<number>>([])
  const failing = yield* Ref.make(false)
  const repository = IdempotencyRepository.of({
    reserve: () => Effect.die("not used by the purge"),
    release: () => Effect.die("not used by the purge"),
    purge: (upTo) =>
      Effect.gen(function* () {
        yield* Ref.update(purges, (made) => [...made, upTo.getTime()])
        if (yield* Ref.get(failing)) return yield* new StorageError({ operation: "purge", cause: "down" })
        return 0
      })
  })
  return { purges, failing, layer: Layer.succeed(IdempotencyRepository, repository) }
})

/** Lets the loop run until it waits for the clock. */
const settle = Effect.gen(function* () {
  for (let turn = 0; turn < 50; turn++) yield* Effect.yieldNow
})

describe("runIdempotencyPurge", () => {
  it.effect("purges at start, then every interval, and a failing purge does not stop the next", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(t0)
      const storage = yield* recordingPurges
      const hour = Duration.toMillis("1 hour")
      const running = yield* runIdempotencyPurge({ batchSize: 10, interval: "1 hour" }).pipe(
        Effect.provide(storage.layer),
        Effect.forkChild
      )
      yield* settle
      expect(yield* Ref.get(storage.purges)).toStrictEqual([idempotencyExpiredUpTo(t0).getTime()])

      yield* Ref.set(storage.failing, true)
      yield* TestClock.adjust("1 hour")
      yield* settle
      expect(yield* Ref.get(storage.purges)).toHaveLength(2)

      yield* Ref.set(storage.failing, false)
      yield* TestClock.adjust("59 minutes")
      yield* settle
      expect(yield* Ref.get(storage.purges)).toHaveLength(2)
      yield* TestClock.adjust("1 minute")
      yield* settle
      // The purge after the failed one forgets what expired up to its own time.
      expect((yield* Ref.get(storage.purges))[2]).toBe(idempotencyExpiredUpTo(t0 + 2 * hour).getTime())
      yield* Fiber.interrupt(running)
    })
  )

  it("runs hourly in batches of a thousand by default", () => {
    expect(defaultIdempotencyPurge.batchSize).toBe(1_000)
    expect(Duration.toMillis(defaultIdempotencyPurge.interval)).toBe(Duration.toMillis("1 hour"))
  })
})
