/**
 * The catalogue's use cases over in-memory adapters of its two ports: animals created (with an
 * `Idempotency-Key`, replayed on a retry) and listed a page at a time.
 */

import {
  createPet,
  decideIdempotency,
  defaultListLimit,
  IdempotencyKey,
  type IdempotencyRecord,
  IdempotencyRepository,
  ListLimit,
  listPets,
  NewPet,
  Pet,
  PetId,
  PetRepository
} from "@petstore/catalogue"
import { ApiKeyId, defaultAccountName } from "@petstore/kernel"
import { Effect, Layer, Option, Schema } from "effect"

// The two ports, in memory. Real adapters complete a reservation in the same transaction as the insert.
const pets: Array<Pet> = []
const reservations = new Map<string, IdempotencyRecord>()

const MemoryPets = Layer.succeed(
  PetRepository,
  PetRepository.of({
    create: (pet, idempotency) =>
      Effect.sync(() => {
        const created = new Pet({
          ...pet,
          id: PetId.make(pets.length + 1),
          status: pet.status ?? "available"
        })
        pets.push(created)
        Option.map(idempotency, ({ account, key }) => {
          const record = reservations.get(`${account}/${key}`)
          if (record !== undefined)
            reservations.set(`${account}/${key}`, { ...record, petId: Option.some(created.id) })
        })
        return created
      }),
    findById: (id) => Effect.sync(() => Option.fromNullishOr(pets.find((pet) => pet.id === id))),
    list: ({ after, limit, status }) =>
      Effect.sync(() => {
        const matching = pets.filter(
          (pet) =>
            Option.match(after, { onNone: () => true, onSome: (id) => pet.id > id }) &&
            Option.match(status, { onNone: () => true, onSome: (wanted) => pet.status === wanted })
        )
        const page = matching.slice(0, limit)
        const last = page[page.length - 1]
        return {
          pets: page,
          nextAfter: matching.length > limit && last !== undefined ? Option.some(last.id) : Option.none()
        }
      })
  })
)

const MemoryIdempotency = Layer.succeed(
  IdempotencyRepository,
  IdempotencyRepository.of({
    reserve: ({ account, key }, fingerprint, now) =>
      Effect.sync(() => {
        const decision = decideIdempotency(
          Option.fromNullishOr(reservations.get(`${account}/${key}`)),
          fingerprint,
          now.getTime()
        )
        if (decision._tag === "Proceed") {
          reservations.set(`${account}/${key}`, { fingerprint, createdAt: now, petId: Option.none() })
        }
        return decision
      }),
    release: ({ account, key }, reservedAt) =>
      Effect.sync(() => {
        const record = reservations.get(`${account}/${key}`)
        const unfinished = record?.createdAt.getTime() === reservedAt.getTime() && Option.isNone(record.petId)
        if (unfinished) reservations.delete(`${account}/${key}`)
        return unfinished
      }),
    purge: () => Effect.succeed(0)
  })
)

const caller = { account: defaultAccountName, keyId: ApiKeyId.make("key_00000000000000a1") }
const retryKey = Option.some(IdempotencyKey.make("order-42"))

const program = Effect.gen(function* () {
  const rex = yield* Schema.decodeUnknownEffect(NewPet)({ name: "Rex", categoryId: 1, colour: "brown" })
  const first = yield* createPet(caller, rex, retryKey)
  const retried = yield* createPet(caller, rex, retryKey)
  console.log(first.pet.id, first.pet.status, first.replayed, retried.pet.id, retried.replayed)

  const tom = yield* Schema.decodeUnknownEffect(NewPet)({ name: "Tom", categoryId: 2, status: "sold" })
  const reused = yield* Effect.flip(createPet(caller, tom, retryKey))
  console.log(reused._tag)
  yield* createPet(caller, tom, Option.none())

  const firstPage = yield* listPets({ limit: ListLimit.make(1), status: Option.none(), after: Option.none() })
  const secondPage = yield* listPets({
    limit: defaultListLimit,
    status: Option.none(),
    after: firstPage.nextAfter
  })
  console.log(
    firstPage.pets.map((pet) => pet.name),
    Option.getOrNull(firstPage.nextAfter)
  )
  console.log(
    secondPage.pets.map((pet) => pet.name),
    Option.getOrNull(secondPage.nextAfter)
  )
})

Effect.runPromise(program.pipe(Effect.provide(Layer.merge(MemoryPets, MemoryIdempotency))))

// Output:
// 1 available false 1 true
// IdempotencyKeyReused
// [ 'Rex' ] 1
// [ 'Tom' ] null
