import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Option, Ref } from "effect"
import { TestClock } from "effect/testing"
import {
  CategoryId,
  currentGetPetAvailability,
  GetPetRemoved,
  getPet,
  getPetAvailabilityAt,
  getPetDeprecatedAt,
  getPetRemovedAt,
  Pet,
  PetId,
  PetName,
  PetNotFound,
  PetRepository
} from "../src/index.js"

const removalMillis = Date.parse("2030-12-05T00:00:00Z")

const rex = Pet.make({
  id: PetId.make(1),
  name: PetName.make("Rex"),
  categoryId: CategoryId.make(1),
  status: "sold"
})

/** A repository that must not be reached: any call is a defect, which fails the test. */
const UntouchableRepository = Layer.succeed(PetRepository, {
  create: () => Effect.die("PetRepository.create must not be called"),
  findById: () => Effect.die("PetRepository.findById must not be called"),
  list: () => Effect.die("PetRepository.list must not be called")
})

/** A repository holding `rex`, counting lookups. */
const countingRepository = (lookups: Ref.Ref<number>) =>
  Layer.succeed(PetRepository, {
    create: () => Effect.die("PetRepository.create must not be called"),
    findById: (id) =>
      Ref.update(lookups, (n) => n + 1).pipe(Effect.as(id === rex.id ? Option.some(rex) : Option.none())),
    list: () => Effect.die("PetRepository.list must not be called")
  })

describe("GET /pets/{petId} lifecycle", () => {
  it("has the dates of the contract", () => {
    expect(getPetRemovedAt.getTime()).toBe(removalMillis)
    expect(getPetRemovedAt.toUTCString()).toBe("Thu, 05 Dec 2030 00:00:00 GMT")
    expect(getPetDeprecatedAt.getTime() / 1000).toBe(1795564800)
  })

  it("is deprecated until the last millisecond before the removal date, removed from it on", () => {
    expect(getPetAvailabilityAt(0)).toBe("deprecated")
    expect(getPetAvailabilityAt(getPetDeprecatedAt.getTime())).toBe("deprecated")
    expect(getPetAvailabilityAt(removalMillis - 1)).toBe("deprecated")
    expect(getPetAvailabilityAt(removalMillis)).toBe("removed")
    expect(getPetAvailabilityAt(removalMillis + 1)).toBe("removed")
    expect(getPetAvailabilityAt(Date.parse("2100-01-01T00:00:00Z"))).toBe("removed")
  })

  it.effect("reads the service clock: deprecated just before 2030-12-05T00:00:00Z", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(removalMillis - 1)
      expect(yield* currentGetPetAvailability).toBe("deprecated")
    })
  )

  it.effect("reads the service clock: removed exactly at 2030-12-05T00:00:00Z and after", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(removalMillis)
      expect(yield* currentGetPetAvailability).toBe("removed")
      yield* TestClock.adjust("1 millis")
      expect(yield* currentGetPetAvailability).toBe("removed")
      yield* TestClock.adjust("3650 days")
      expect(yield* currentGetPetAvailability).toBe("removed")
    })
  )

  describe("getPet", () => {
    it.effect("fails with GetPetRemoved at the removal date without touching the repository", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(removalMillis)
        const exit = yield* Effect.exit(getPet(rex.id))
        expect(exit).toStrictEqual(Exit.fail(new GetPetRemoved()))
      }).pipe(Effect.provide(UntouchableRepository))
    )

    it.effect("fails with GetPetRemoved after the removal date, even for an unknown id", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(removalMillis + 86_400_000)
        const error = yield* Effect.flip(getPet(PetId.make(424242)))
        expect(error).toBeInstanceOf(GetPetRemoved)
      }).pipe(Effect.provide(UntouchableRepository))
    )

    it.effect("returns the pet just before the removal date", () =>
      Effect.gen(function* () {
        const lookups = yield* Ref.make(0)
        yield* TestClock.setTime(removalMillis - 1)
        const pet = yield* getPet(rex.id).pipe(Effect.provide(countingRepository(lookups)))
        expect(pet).toStrictEqual(rex)
        expect(yield* Ref.get(lookups)).toBe(1)
      })
    )

    it.effect("fails with PetNotFound for an unknown id before the removal date", () =>
      Effect.gen(function* () {
        const lookups = yield* Ref.make(0)
        yield* TestClock.setTime(removalMillis - 1)
        const error = yield* Effect.flip(
          getPet(PetId.make(2)).pipe(Effect.provide(countingRepository(lookups)))
        )
        expect(error).toBeInstanceOf(PetNotFound)
        expect(error).toStrictEqual(new PetNotFound({ petId: PetId.make(2) }))
        expect(yield* Ref.get(lookups)).toBe(1)
      })
    )

    it.effect("the same repository is no longer read once the date passes", () =>
      Effect.gen(function* () {
        const lookups = yield* Ref.make(0)
        const repository = countingRepository(lookups)
        yield* TestClock.setTime(removalMillis - 1000)
        expect(yield* getPet(rex.id).pipe(Effect.provide(repository))).toStrictEqual(rex)
        yield* TestClock.adjust("1 seconds")
        const error = yield* Effect.flip(getPet(rex.id).pipe(Effect.provide(repository)))
        expect(error._tag).toBe("GetPetRemoved")
        expect(yield* Ref.get(lookups)).toBe(1)
      })
    )
  })
})
