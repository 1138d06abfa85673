/**
 * The behaviour every IdempotencyRepository must have (with the PetRepository that completes its
 * reservations), as a test suite run against each adapter. Every test uses scopes of its own.
 */
import { describe, expect, layer, type Vitest } from "@effect/vitest"
import {
  IdempotencyRepository,
  idempotencyInFlightLease,
  idempotencyRetention,
  PetRepository
} from "@petstore/catalogue"
import { AccountName } from "@petstore/kernel"
import { Array as Arr, Duration, Effect, type Layer, Option } from "effect"
import { freshScope, later, newPet, t0 } from "./ContractFixtures.js"
import type { PetStore } from "./PetRepositoryContract.js"

const proceed = { _tag: "Proceed" } as const
const inFlight = { _tag: "InFlight" } as const
const keyReused = { _tag: "KeyReused" } as const

export const idempotencyRepositoryTests = (it: Vitest.MethodsNonLive<PetStore>): void => {
  it.effect("reserve, create with the scope, then the same fingerprint replays the animal", () =>
    Effect.gen(function* () {
      const keys = yield* IdempotencyRepository
      const pets = yield* PetRepository
      const scope = yield* freshScope
      expect(yield* keys.reserve(scope, "fp-1", t0)).toEqual(proceed)
      const pet = yield* pets.create(newPet("Idem"), Option.some(scope))
      expect(yield* keys.reserve(scope, "fp-1", later(t0, 1_000))).toEqual({ _tag: "Replay", petId: pet.id })
      expect(yield* keys.reserve(scope, "fp-1", later(t0, 2_000))).toEqual({ _tag: "Replay", petId: pet.id })
    })
  )

  it.effect("a different fingerprint under a completed key is KeyReused", () =>
    Effect.gen(function* () {
      const keys = yield* IdempotencyRepository
      const pets = yield* PetRepository
      const scope = yield* freshScope
      yield* keys.reserve(scope, "fp-1", t0)
      yield* pets.create(newPet("Idem"), Option.some(scope))
      expect(yield* keys.reserve(scope, "fp-2", later(t0, 1_000))).toEqual(keyReused)
    })
  )

  it.effect("reserving twice without completion is InFlight (KeyReused for another fingerprint)", () =>
    Effect.gen(function* () {
      const keys = yield* IdempotencyRepository
      const scope = yield* freshScope
      expect(yield* keys.reserve(scope, "fp-1", t0)).toEqual(proceed)
      expect(yield* keys.reserve(scope, "fp-1", later(t0, 1_000))).toEqual(inFlight)
      expect(yield* keys.reserve(scope, "fp-2", later(t0, 1_000))).toEqual(keyReused)
    })
  )

  it.effect("release drops an unfinished reservation, so a retry proceeds", () =>
    Effect.gen(function* () {
      const keys = yield* IdempotencyRepository
      const scope = yield* freshScope
      yield* keys.reserve(scope, "fp-1", t0)
      expect(yield* keys.release(scope, t0)).toBe(true)
      expect(yield* keys.release(scope, t0)).toBe(false)
      const retried = later(t0, 1_000)
      expect(yield* keys.reserve(scope, "fp-1", retried)).toEqual(proceed)
      expect(yield* keys.release(scope, retried)).toBe(true)
      expect(yield* keys.reserve(scope, "fp-2", later(t0, 2_000))).toEqual(proceed)
    })
  )

  it.effect("release leaves a completed request alone, and releasing an unknown scope is harmless", () =>
    Effect.gen(function* () {
      const keys = yield* IdempotencyRepository
      const pets = yield* PetRepository
      const scope = yield* freshScope
      expect(yield* keys.release(yield* freshScope, t0)).toBe(false)
      yield* keys.reserve(scope, "fp-1", t0)
      const pet = yield* pets.create(newPet("Kept"), Option.some(scope))
      expect(yield* keys.release(scope, t0)).toBe(false)
      expect(yield* keys.reserve(scope, "fp-1", later(t0, 1_000))).toEqual({ _tag: "Replay", petId: pet.id })
    })
  )

  it.effect("a late release leaves alone the reservation of a request that took the key over", () =>
    Effect.gen(function* () {
      const keys = yield* IdempotencyRepository
      const scope = yield* freshScope
      yield* keys.reserve(scope, "fp-1", t0)
      const takeover = later(t0, Duration.toMillis(idempotencyInFlightLease))
      expect(yield* keys.reserve(scope, "fp-1", takeover)).toEqual(proceed)
      expect(yield* keys.release(scope, t0)).toBe(false)
      expect(yield* keys.reserve(scope, "fp-1", later(takeover, 1_000))).toEqual(inFlight)
      expect(yield* keys.release(scope, takeover)).toBe(true)
      expect(yield* keys.reserve(scope, "fp-1", later(takeover, 2_000))).toEqual(proceed)
    })
  )

  it.effect("scopes of different accounts are independent", () =>
    Effect.gen(function* () {
      const keys = yield* IdempotencyRepository
      const pets = yield* PetRepository
      const scope = yield* freshScope
      const otherAccount = { ...scope, account: AccountName.make(`${scope.account}-other`) }
      expect(yield* keys.reserve(scope, "fp-1", t0)).toEqual(proceed)
      expect(yield* keys.reserve(otherAccount, "fp-1", t0)).toEqual(proceed)
      const pet = yield* pets.create(newPet("Mine"), Option.some(scope))
      expect(yield* keys.reserve(scope, "fp-1", later(t0, 1_000))).toEqual({ _tag: "Replay", petId: pet.id })
      expect(yield* keys.reserve(otherAccount, "fp-1", later(t0, 1_000))).toEqual(inFlight)
      const theirs = yield* pets.create(newPet("Theirs"), Option.some(otherAccount))
      expect(yield* keys.reserve(otherAccount, "fp-1", later(t0, 2_000))).toEqual({
        _tag: "Replay",
        petId: theirs.id
      })
    })
  )

  it.effect("a completed key expires after 24 hours: the next request proceeds and reserves again", () =>
    Effect.gen(function* () {
      const keys = yield* IdempotencyRepository
      const pets = yield* PetRepository
      const scope = yield* freshScope
      const retention = Duration.toMillis(idempotencyRetention)
      yield* keys.reserve(scope, "fp-1", t0)
      const pet = yield* pets.create(newPet("Old"), Option.some(scope))
      expect(yield* keys.reserve(scope, "fp-1", later(t0, retention - 1))).toEqual({
        _tag: "Replay",
        petId: pet.id
      })
      const renewed = later(t0, retention)
      expect(yield* keys.reserve(scope, "fp-2", renewed)).toEqual(proceed)
      expect(yield* keys.reserve(scope, "fp-2", later(renewed, 1_000))).toEqual(inFlight)
      const second = yield* pets.create(newPet("New"), Option.some(scope))
      expect(yield* keys.reserve(scope, "fp-2", later(renewed, 2_000))).toEqual({
        _tag: "Replay",
        petId: second.id
      })
    })
  )

  it.effect("an unfinished reservation older than the 60 s lease no longer blocks", () =>
    Effect.gen(function* () {
      const keys = yield* IdempotencyRepository
      const scope = yield* freshScope
      const lease = Duration.toMillis(idempotencyInFlightLease)
      yield* keys.reserve(scope, "fp-1", t0)
      expect(yield* keys.reserve(scope, "fp-1", later(t0, lease - 1))).toEqual(inFlight)
      expect(yield* keys.reserve(scope, "fp-1", later(t0, lease))).toEqual(proceed)
      expect(yield* keys.reserve(scope, "fp-1", later(t0, lease + 1))).toEqual(inFlight)
    })
  )

  it.effect("purge forgets keys reserved up to the given time, a batch at a time, and nothing newer", () =>
    Effect.gen(function* () {
      const keys = yield* IdempotencyRepository
      const pets = yield* PetRepository
      // Long before every other test's reservations, so that the purge touches only this test's keys.
      const ancient = new Date("2001-01-01T00:00:00.000Z")
      const [completed, unfinished, third, recent] = yield* Effect.all([
        freshScope,
        freshScope,
        freshScope,
        freshScope
      ])
      yield* keys.reserve(completed, "fp-1", ancient)
      yield* pets.create(newPet("Forgotten"), Option.some(completed))
      yield* keys.reserve(unfinished, "fp-1", ancient)
      yield* keys.reserve(third, "fp-1", later(ancient, 1_000))
      yield* keys.reserve(recent, "fp-1", later(ancient, 1_001))

      expect(yield* keys.purge(later(ancient, 1_000), 2)).toBe(2)
      expect(yield* keys.purge(later(ancient, 1_000), 2)).toBe(1)
      expect(yield* keys.purge(later(ancient, 1_000), 2)).toBe(0)

      // Still remembered, another body would be KeyReused: a forgotten key proceeds.
      const soon = later(ancient, 2_000)
      expect(yield* keys.reserve(completed, "fp-2", soon)).toEqual(proceed)
      expect(yield* keys.reserve(unfinished, "fp-2", soon)).toEqual(proceed)
      expect(yield* keys.reserve(third, "fp-2", soon)).toEqual(proceed)
      expect(yield* keys.reserve(recent, "fp-2", soon)).toEqual(keyReused)
    })
  )

  it.effect("concurrent reserves of one scope: exactly one Proceed", () =>
    Effect.gen(function* () {
      const keys = yield* IdempotencyRepository
      for (const round of Arr.range(1, 3)) {
        const scope = yield* freshScope
        const decisions = yield* Effect.forEach(
          Arr.range(1, 20),
          () => keys.reserve(scope, `fp-${round}`, t0),
          {
            concurrency: "unbounded"
          }
        )
        expect(decisions.filter((decision) => decision._tag === "Proceed")).toHaveLength(1)
        expect(decisions.filter((decision) => decision._tag === "InFlight")).toHaveLength(19)
      }
    })
  )

  it.effect("concurrent reserves after the lease expired: exactly one takes over", () =>
    Effect.gen(function* () {
      const keys = yield* IdempotencyRepository
      const scope = yield* freshScope
      yield* keys.reserve(scope, "fp-1", t0)
      const takeover = later(t0, Duration.toMillis(idempotencyInFlightLease) + 1)
      const decisions = yield* Effect.forEach(Arr.range(1, 20), () => keys.reserve(scope, "fp-1", takeover), {
        concurrency: "unbounded"
      })
      expect(decisions.filter((decision) => decision._tag === "Proceed")).toHaveLength(1)
    })
  )
}

/** Runs the suite against one fresh store built from `store`. */
export const idempotencyRepositoryContract = <E>(name: string, store: Layer.Layer<PetStore, E>): void =>
  layer(store, { excludeTestServices: true })(name, (it) =>
    describe("IdempotencyRepository", () => idempotencyRepositoryTests(it))
  )
