/**
 * PetRepository in memory: animals in an array, in the order they were created. Ids are 1, 2, 3…
 * and none is ever removed, so the animal with id n is at index n - 1 and keyset paging starts right
 * at the cursor's index. Creating with an idempotency scope completes the reservation in the same
 * uninterruptible step.
 */
import { defaultPetStatus, Pet, PetId, PetRepository } from "@petstore/catalogue"
import { Effect, Layer, Option, Ref } from "effect"
import { completeReservation, MemoryIdempotencyTable } from "./MemoryIdempotencyTable.js"

export const make: Effect.Effect<PetRepository["Service"], never, MemoryIdempotencyTable> = Effect.gen(
  function* () {
    const reservations = yield* MemoryIdempotencyTable
    // Read and appended only inside synchronous steps, so no fiber ever sees it half-written.
    const pets: Array<Pet> = []

    return PetRepository.of({
      create: (newPet, idempotency) =>
        Effect.uninterruptible(
          Effect.gen(function* () {
            const pet = yield* Effect.sync(() => {
              const created = new Pet({
                id: PetId.make(pets.length + 1),
                name: newPet.name,
                categoryId: newPet.categoryId,
                status: newPet.status ?? defaultPetStatus
              })
              pets.push(created)
              return created
            })
            if (Option.isSome(idempotency)) {
              yield* Ref.update(reservations, (current) =>
                completeReservation(current, idempotency.value, pet.id)
              )
            }
            return pet
          })
        ),
      findById: (id) => Effect.sync(() => Option.fromUndefinedOr(pets[id - 1])),
      list: (query) =>
        Effect.sync(() => {
          const page: Array<Pet> = []
          let nextAfter: Option.Option<PetId> = Option.none()
          for (
            let index = Math.max(
              0,
              Option.getOrElse(query.after, () => 0)
            );
            index < pets.length;
            index++
          ) {
            const pet = pets[index]
            if (pet === undefined) break
            if (Option.isSome(query.status) && pet.status !== query.status.value) continue
            if (page.length === query.limit) {
              nextAfter = Option.fromUndefinedOr(page.at(-1)?.id)
              break
            }
            page.push(pet)
          }
          return { pets: page, nextAfter }
        })
    })
  }
)

export const layer: Layer.Layer<PetRepository, never, MemoryIdempotencyTable> = Layer.effect(
  PetRepository,
  make
)
