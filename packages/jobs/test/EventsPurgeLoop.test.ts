/**
 * The purge loop around `purgeExpiredEvents`: at start, then every interval, each forgetting
 * what is older than 30 days at its own time, and a failing purge does not stop the next.
 */
import { describe, expect, it } from "@effect/vitest"
import { DomainEventRepository, eventRetention } from "@petstore/events"
import { StorageError } from "@petstore/kernel"
import { Duration, Effect, Fiber, Layer, Ref } from "effect"
import { TestClock } from "effect/testing"
import { defaultEventsPurgeInterval, runEventsPurge } from "../src/EventsPurgeLoop.js"

const t0 = Date.parse("2027-03-01T12:00:00.000Z")
const day = Duration.toMillis("1 day")
const hour = Duration.toMillis("1 hour")

/** Storage whose purge records up to when it was asked, and fails while `failing` is set. */
const recordingPurges = Effect.gen(function* () {
  const purges = yield* Ref.make<ReadonlyArray<number>>([])
  const failing = yield* Ref.make(false)
  const repository = DomainEventRepository.of({
    listByProject: () => Effect.die("not used by the purge"),
    purge: (upTo) =>
      Effect.gen(function* () {
        yield* Ref.update(purges, (made) => [...made, upTo.getTime()])
        if (yield* Ref.get(failing)) return yield* new StorageError({ operation: "purge", cause: "down" })
        return 3
      })
  })
  return { purges, failing, layer: Layer.succeed(DomainEventRepository, repository) }
})

/** Lets the loop run until it waits for the clock. */
const settle = Effect.gen(function* () {
  for (let turn = 0; turn < 50; turn++) yield* Effect.yieldNow
})

describe("runEventsPurge", () => {
  it.effect(
    "purges what is 30 days old at start, then every interval, and a failing purge does not stop the next",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(t0)
        const storage = yield* recordingPurges
        const running = yield* runEventsPurge("1 hour").pipe(Effect.provide(storage.layer), Effect.forkChild)
        yield* settle
        expect(yield* Ref.get(storage.purges)).toStrictEqual([t0 - 30 * day])

        yield* Ref.set(storage.failing, true)
        yield* TestClock.adjust("1 hour")
        yield* settle
        expect(yield* Ref.get(storage.purges)).toStrictEqual([t0 - 30 * day, t0 + hour - 30 * day])

        yield* Ref.set(storage.failing, false)
        yield* TestClock.adjust("59 minutes")
        yield* settle
        expect(yield* Ref.get(storage.purges)).toHaveLength(2)
        yield* TestClock.adjust("1 minute")
        yield* settle
        // The purge after the failed one forgets what is past the retention at its own time.
        expect((yield* Ref.get(storage.purges))[2]).toBe(t0 + 2 * hour - 30 * day)
        yield* Fiber.interrupt(running)
      })
  )

  it("keeps events 30 days and purges hourly by default", () => {
    expect(Duration.toMillis(eventRetention)).toBe(30 * day)
    expect(Duration.toMillis(defaultEventsPurgeInterval)).toBe(hour)
  })
})
