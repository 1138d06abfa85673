import { describe, expect, it } from "@effect/vitest"
import { StorageError } from "@petstore/kernel"
import { Duration, Effect, Layer, Option, Ref } from "effect"
import { TestClock } from "effect/testing"
import {
  type IdempotencyRecord,
  IdempotencyRepository,
  idempotencyExpiredUpTo,
  idempotencyRetention,
  purgeExpiredIdempotencyKeys
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

  it.effect("fails with the storage's error, so that the caller can log it and try again later", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(t0)
      const fake = yield* fakeKeys([record(t0 - retention)])
      yield* Ref.set(fake.failing, true)
      const failure = yield* Effect.flip(purgeExpiredIdempotencyKeys(10).pipe(Effect.provide(fake.layer)))
      expect(failure).toBeInstanceOf(StorageError)
      expect(yield* Ref.get(fake.records)).toHaveLength(1)
    })
  )
})
