/**
 * The behaviour every PetRepository must have, as a test suite run against each adapter. Tests share
 * one store per suite, so each one only looks at the animals it created (ids after a marker).
 */
import { describe, expect, layer, type Vitest } from "@effect/vitest"
import { type IdempotencyRepository, maxSafeInteger, PetId, PetRepository } from "@petstore/catalogue"
import { Array as Arr, Effect, type Layer, Option } from "effect"
import { createMarker, listAllPages, newPet, query } from "./ContractFixtures.js"

export type PetStore = PetRepository | IdempotencyRepository

const names = [
  "Rex",
  "Ünïcødé Fëlix 名前 Кот",
  "🐶🐱🐭 emoji 👨‍👩‍👧‍👦",
  " leading and trailing spaces ",
  "e\u0301 (decomposed, kept as sent)",
  "x".repeat(200),
  "🐶".repeat(200),
  "quote ' and backslash \\ and $1"
]

export const petRepositoryTests = (it: Vitest.MethodsNonLive<PetStore>): void => {
  it.effect("create assigns increasing unique ids and findById returns the animal", () =>
    Effect.gen(function* () {
      const pets = yield* PetRepository
      const created = yield* Effect.forEach(["a", "b", "c"], (name) =>
        pets.create(newPet(name), Option.none())
      )
      const ids = created.map((pet) => pet.id)
      expect(new Set(ids).size).toBe(3)
      expect([...ids].sort((a, b) => a - b)).toEqual(ids)
      for (const pet of created) {
        expect(yield* pets.findById(pet.id)).toEqual(Option.some(pet))
      }
    })
  )

  it.effect("status defaults to available; a given status is kept", () =>
    Effect.gen(function* () {
      const pets = yield* PetRepository
      const defaulted = yield* pets.create(newPet("Default"), Option.none())
      const sold = yield* pets.create(newPet("Sold", { status: "sold" }), Option.none())
      const pending = yield* pets.create(newPet("Pending", { status: "pending" }), Option.none())
      expect([defaulted.status, sold.status, pending.status]).toEqual(["available", "sold", "pending"])
      expect(Option.map(yield* pets.findById(defaulted.id), (pet) => pet.status)).toEqual(
        Option.some("available")
      )
    })
  )

  it.effect("names are stored and returned exactly as sent (unicode, emoji, 200 characters)", () =>
    Effect.gen(function* () {
      const pets = yield* PetRepository
      const marker = yield* createMarker
      const created = yield* Effect.forEach(names, (name) => pets.create(newPet(name), Option.none()))
      expect(created.map((pet) => pet.name)).toEqual(names)
      const found = yield* Effect.forEach(created, (pet) => pets.findById(pet.id))
      expect(found.map((pet) => Option.map(pet, (p) => p.name))).toEqual(names.map(Option.some))
      const listed = yield* pets.list(query(100, { after: marker.id }))
      expect(listed.pets.map((pet) => pet.name)).toEqual(names)
    })
  )

  it.effect("categoryId round-trips exactly up to 2^53-1", () =>
    Effect.gen(function* () {
      const pets = yield* PetRepository
      for (const categoryId of [1, 2 ** 31, 2 ** 32 + 1, maxSafeInteger - 1, maxSafeInteger]) {
        const created = yield* pets.create(newPet("Big", { categoryId }), Option.none())
        expect(created.categoryId).toBe(categoryId)
        expect(Option.map(yield* pets.findById(created.id), (pet) => pet.categoryId)).toEqual(
          Option.some(categoryId)
        )
      }
    })
  )

  it.effect("findById answers none for an id never assigned", () =>
    Effect.gen(function* () {
      const pets = yield* PetRepository
      expect(yield* pets.findById(PetId.make(maxSafeInteger))).toEqual(Option.none())
    })
  )

  it.effect("list: ascending ids after the cursor, at most limit, nextAfter only when more match", () =>
    Effect.gen(function* () {
      const pets = yield* PetRepository
      const marker = yield* createMarker
      const created = yield* Effect.forEach(Arr.range(1, 5), (n) =>
        pets.create(newPet(`P${n}`), Option.none())
      )
      const ids = created.map((pet) => pet.id)

      const first = yield* pets.list(query(2, { after: marker.id }))
      expect(first.pets.map((pet) => pet.id)).toEqual(ids.slice(0, 2))
      expect(first.nextAfter).toEqual(Option.some(ids[1]))

      const all = yield* pets.list(query(100, { after: marker.id }))
      expect(all.pets.map((pet) => pet.id)).toEqual(ids)
      expect(all.pets).toEqual(created)
      expect(all.nextAfter).toEqual(Option.none())

      const unfiltered = yield* pets.list(query(1))
      expect(unfiltered.pets).toHaveLength(1)
      expect(Option.isSome(unfiltered.nextAfter)).toBe(true)
    })
  )

  it.effect("exactly limit matching rows: no nextAfter", () =>
    Effect.gen(function* () {
      const pets = yield* PetRepository
      const marker = yield* createMarker
      const created = yield* Effect.forEach(Arr.range(1, 3), (n) =>
        pets.create(newPet(`E${n}`), Option.none())
      )
      const ids = created.map((pet) => pet.id)

      const exact = yield* pets.list(query(3, { after: marker.id }))
      expect(exact.pets.map((pet) => pet.id)).toEqual(ids)
      expect(exact.nextAfter).toEqual(Option.none())

      const roomy = yield* pets.list(query(4, { after: marker.id }))
      expect(roomy.nextAfter).toEqual(Option.none())

      const short = yield* pets.list(query(2, { after: marker.id }))
      expect(short.nextAfter).toEqual(Option.some(ids[1]))
      const rest = yield* pets.list({ ...query(2), after: short.nextAfter })
      expect(rest.pets.map((pet) => pet.id)).toEqual(ids.slice(2))
      expect(rest.nextAfter).toEqual(Option.none())
    })
  )

  it.effect("status filter: only that status, and nextAfter counts only matching animals", () =>
    Effect.gen(function* () {
      const pets = yield* PetRepository
      const marker = yield* createMarker
      const statuses = ["sold", "available", "sold", "pending", "sold", "available"] as const
      const created = yield* Effect.forEach(statuses, (status, n) =>
        pets.create(newPet(`S${n}`, { status }), Option.none())
      )
      const soldIds = created.filter((pet) => pet.status === "sold").map((pet) => pet.id)

      const sold = yield* pets.list(query(10, { status: "sold", after: marker.id }))
      expect(sold.pets.map((pet) => pet.id)).toEqual(soldIds)
      expect(sold.pets.every((pet) => pet.status === "sold")).toBe(true)
      expect(sold.nextAfter).toEqual(Option.none())

      // Three sold animals, limit three, non-matching animals after the last one: no next page.
      const exact = yield* pets.list(query(3, { status: "sold", after: marker.id }))
      expect(exact.pets.map((pet) => pet.id)).toEqual(soldIds)
      expect(exact.nextAfter).toEqual(Option.none())

      const firstTwo = yield* pets.list(query(2, { status: "sold", after: marker.id }))
      expect(firstTwo.pets.map((pet) => pet.id)).toEqual(soldIds.slice(0, 2))
      expect(firstTwo.nextAfter).toEqual(Option.some(soldIds[1]))

      const pending = yield* pets.list(query(10, { status: "pending", after: marker.id }))
      expect(pending.pets.map((pet) => pet.name)).toEqual(["S3"])
    })
  )

  it.effect("paging visits every matching animal once, without gaps or duplicates", () =>
    Effect.gen(function* () {
      const pets = yield* PetRepository
      const marker = yield* createMarker
      const statuses = ["available", "pending", "sold"] as const
      const created = yield* Effect.forEach(Arr.range(0, 22), (n) =>
        pets.create(newPet(`G${n}`, { status: statuses[n % 3] ?? "available" }), Option.none())
      )

      const everything = yield* listAllPages(query(5, { after: marker.id }))
      expect(everything.pets.map((pet) => pet.id)).toEqual(created.map((pet) => pet.id))
      expect(everything.pageSizes).toEqual([5, 5, 5, 5, 3])

      for (const status of statuses) {
        const matching = yield* listAllPages(query(2, { status, after: marker.id }))
        expect(matching.pets.map((pet) => pet.id)).toEqual(
          created.filter((pet) => pet.status === status).map((pet) => pet.id)
        )
      }
    })
  )

  it.effect("200 concurrent creates: 200 unique ids, all listed", () =>
    Effect.gen(function* () {
      const pets = yield* PetRepository
      const marker = yield* createMarker
      const created = yield* Effect.forEach(
        Arr.range(1, 200),
        (n) => pets.create(newPet(`C${n}`), Option.none()),
        {
          concurrency: "unbounded"
        }
      )
      const ids = created.map((pet) => pet.id)
      expect(new Set(ids).size).toBe(200)

      const listed = yield* listAllPages(query(100, { after: marker.id }))
      expect(listed.pets.map((pet) => pet.id)).toEqual([...ids].sort((a, b) => a - b))
    })
  )
}

/** Runs the suite against one fresh store built from `store`. */
export const petRepositoryContract = <E>(name: string, store: Layer.Layer<PetStore, E>): void =>
  layer(store, { excludeTestServices: true })(name, (it) =>
    describe("PetRepository", () => petRepositoryTests(it))
  )
