/**
 * PetRepository in memory: animals in a red-black tree keyed by id, so keyset paging walks the ids
 * after the cursor in order. Creating with an idempotency scope completes the reservation in the
 * same uninterruptible step.
 */
import { defaultPetStatus, Pet, PetId, PetRepository } from "@petstore/domain"
import { Array as Arr, Effect, Layer, Option, Order, RedBlackTree, Ref } from "effect"
import { completeReservation, MemoryIdempotencyTable } from "./MemoryIdempotencyTable.js"

interface PetTable {
  readonly lastId: number
  readonly pets: RedBlackTree.RedBlackTree<number, Pet>
}

export const make: Effect.Effect<PetRepository["Type"], never, MemoryIdempotencyTable> = Effect.gen(
  function* () {
    const reservations = yield* MemoryIdempotencyTable
    const table = yield* Ref.make<PetTable>({ lastId: 0, pets: RedBlackTree.empty(Order.number) })

    return PetRepository.of({
      create: (newPet, idempotency) =>
        Effect.uninterruptible(
          Effect.gen(function* () {
            const pet = yield* Ref.modify(table, ({ lastId, pets }): [Pet, PetTable] => {
              const created = new Pet({
                id: PetId.make(lastId + 1),
                name: newPet.name,
                categoryId: newPet.categoryId,
                status: newPet.status ?? defaultPetStatus
              })
              return [created, { lastId: created.id, pets: RedBlackTree.insert(pets, created.id, created) }]
            })
            if (Option.isSome(idempotency)) {
              yield* Ref.update(reservations, (current) =>
                completeReservation(current, idempotency.value, pet.id)
              )
            }
            return pet
          })
        ),
      findById: (id) => Effect.map(Ref.get(table), ({ pets }) => RedBlackTree.findFirst(pets, id)),
      list: (query) =>
        Effect.map(Ref.get(table), ({ pets }) => {
          const page: Array<Pet> = []
          let nextAfter: Option.Option<PetId> = Option.none()
          for (const [, pet] of RedBlackTree.greaterThan(
            pets,
            Option.getOrElse(query.after, () => 0)
          )) {
            if (Option.isSome(query.status) && pet.status !== query.status.value) continue
            if (page.length === query.limit) {
              nextAfter = Option.map(Arr.last(page), (last) => last.id)
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
