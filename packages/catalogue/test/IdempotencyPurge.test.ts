import { describe, expect, it } from "@effect/vitest"
import { StorageError } from "@petstore/kernel"
import { Duration, Effect, Fiber, Layer, Option, Ref } from "effect"
import { TestClock } from "effect/testing"
import {
  defaultIdempotencyPurge,
  type IdempotencyRecord,
  IdempotencyRepository,
  idempotencyExpiredUpTo,
  idempotencyRetention,
  purgeExpiredIdempotencyKeys,
  runIdempotencyPurge
} from "../src/index.js"

const t0 = Date.parse("2027-03-01T12:00:00.000Z")
const retention = Duration.toMillis(idempotencyRetention)

const record = (createdAtMillis: number): IdempotencyRecord => ({
  fingerprint: "fp",
  createdAt: new Date(createdAtMillis),
  petId: Option.none()
})

/** Keys in a list; `purge` as the port says, every call recorded; it fails while `failing` is set. */
const fakeKeys = (stored: ReadonlyArray<IdempotencyRecord>) =>
  Effect.gen(function* () {
    const records = yield* Ref.make(stored)
    const calls = yield* Ref.make<ReadonlyArray<{ readonly upTo: number; readonly limit: number }>>([])
    const failing = yield* Ref.make(false)
    const repository = IdempotencyRepository.of({
      reserve: () => Effect.die("not used by the purge"),
      release: () => Effect.die("not used by the purge"),
      purge: (upTo, limit) =>
        Effect.gen(function* () {
          yield* Ref.update(calls, (made) => [...made, { upTo: upTo.getTime(), limit }])
          if (yield* Ref.get(failing)) return yield* new StorageError({ operation: "purge", cause: "down" })
          const all = yield* Ref.get(records)
          const expired = all.filter((r) => r.createdAt.getTime() <= upTo.getTime()).slice(0, limit)
          yield* Ref.set(
            records,
            all.filter((r) => !expired.includes(r))
          )
          return expired.length
        })
    })
    return { records, calls, failing, layer: Layer.succeed(IdempotencyRepository, repository) }
  })

describe("purging expired idempotency keys", () => {
  it("a key reserved exactly 24 hours ago has expired, one a millisecond younger has not", () => {
    expect(idempotencyExpiredUpTo(t0).getTime()).toBe(t0 - retention)
  })

  it.effect("forgets every expired key in batches, keeps the ones still remembered", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(t0)
      const expired = Array.from({ length: 7 }, (_, i) => record(t0 - retention - i))
      const kept = [record(t0 - retention + 1), record(t0)]
      const fake = yield* fakeKeys([...expired, ...kept])
      expect(yield* purgeExpiredIdempotencyKeys(3).pipe(Effect.provide(fake.layer))).toBe(7)
      expect(yield* Ref.get(fake.records)).toStrictEqual(kept)
      // 3 + 3 + 1: the short batch says nothing expired is left.
      expect(yield* Ref.get(fake.calls)).toStrictEqual(
        Array.from({ length: 3 }, () => ({ upTo: t0 - retention, limit: 3 }))
      )
    })
  )

  it.effect("purges at start, then every interval, and a failing purge does not stop the next", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(t0)
      const fake = yield* fakeKeys([record(t0 - retention - 1)])
      const running = yield* runIdempotencyPurge({ batchSize: 10, interval: "1 hour" }).pipe(
        Effect.provide(fake.layer),
        Effect.forkChild
      )
      yield* TestClock.adjust("1 millis")
      expect(yield* Ref.get(fake.records)).toStrictEqual([])
      expect(yield* Ref.get(fake.calls)).toHaveLength(1)

      yield* Ref.set(fake.failing, true)
      yield* TestClock.adjust("1 hour")
      expect(yield* Ref.get(fake.calls)).toHaveLength(2)

      // A key that expired meanwhile is forgotten by the next purge after the failed one.
      yield* Ref.set(fake.failing, false)
      yield* Ref.set(fake.records, [record(t0 + Duration.toMillis("1 hour"))])
      yield* TestClock.adjust("23 hours")
      expect(yield* Ref.get(fake.records)).toHaveLength(1)
      yield* TestClock.adjust("2 hours")
      expect(yield* Ref.get(fake.records)).toStrictEqual([])
      yield* Fiber.interrupt(running)
    })
  )

  it("runs hourly in batches of a thousand by default", () => {
    expect(defaultIdempotencyPurge.batchSize).toBe(1_000)
    expect(Duration.toMillis(defaultIdempotencyPurge.interval)).toBe(Duration.toMillis("1 hour"))
  })
})
