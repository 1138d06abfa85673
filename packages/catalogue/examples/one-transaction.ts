/**
 * Why the two ports must share one transaction: `PetRepository.create` completes the
 * `Idempotency-Key` reservation that `IdempotencyRepository.reserve` made, atomically with the insert.
 * A pet store that ignores the reservation passes the first request, then turns every retry within
 * 60 seconds into `IdempotencyRequestInFlight`, and after that creates the animal a second time.
 */
import {
  createPet,
  decideIdempotency,
  IdempotencyKey,
  type IdempotencyRecord,
  IdempotencyRepository,
  NewPet,
  Pet,
  PetId,
  PetRepository
} from "@petstore/catalogue"
import { ApiKeyId, defaultAccountName } from "@petstore/kernel"
import { Effect, Layer, Option, Schema } from "effect"
import { TestClock } from "effect/testing"

/**
 * Both ports over one store (here: two maps; in SQL: one transaction). With `completesReservation`
 * false, `create` stores the animal and leaves the reservation in flight, as an adapter that ignores
 * its `idempotency` argument (or writes it in another transaction that never commits) would.
 */
const store = (completesReservation: boolean) => {
  const pets: Array<Pet> = []
  const reservations = new Map<string, IdempotencyRecord>()
  const Pets = Layer.succeed(
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
          if (completesReservation && Option.isSome(idempotency)) {
            const scope = `${idempotency.value.account}/${idempotency.value.key}`
            const record = reservations.get(scope)
            if (record !== undefined) reservations.set(scope, { ...record, petId: Option.some(created.id) })
          }
          return created
        }),
      findById: (id) => Effect.sync(() => Option.fromNullishOr(pets.find((pet) => pet.id === id))),
      list: () => Effect.sync(() => ({ pets, nextAfter: Option.none() }))
    })
  )
  const Keys = Layer.succeed(
    IdempotencyRepository,
    IdempotencyRepository.of({
      reserve: ({ account, key }, fingerprint, now) =>
        Effect.sync(() => {
          const scope = `${account}/${key}`
          const decision = decideIdempotency(
            Option.fromNullishOr(reservations.get(scope)),
            fingerprint,
            now.getTime()
          )
          if (decision._tag === "Proceed") {
            reservations.set(scope, { fingerprint, createdAt: now, petId: Option.none() })
          }
          return decision
        }),
      release: () => Effect.succeed(false),
      purge: () => Effect.succeed(0)
    })
  )
  return { pets, layer: Layer.merge(Pets, Keys) }
}

const caller = { account: defaultAccountName, keyId: ApiKeyId.make("key_00000000000000a1") }
const key = Option.some(IdempotencyKey.make("order-42"))
const rex = Schema.decodeUnknownSync(NewPet)({ name: "Rex", categoryId: 1 })

/** A creation and its retries, 1 second and then 61 seconds later, as a client that lost an answer sends them. */
const retried = Effect.gen(function* () {
  const outcomes: Array<string> = []
  const attempt = createPet(caller, rex, key).pipe(
    Effect.map(({ pet, replayed }) => `pet ${pet.id}${replayed ? " (replayed)" : ""}`),
    Effect.catchTag("IdempotencyRequestInFlight", (error) => Effect.succeed(error._tag))
  )
  outcomes.push(yield* attempt)
  yield* TestClock.adjust("1 second")
  outcomes.push(yield* attempt)
  yield* TestClock.adjust("60 seconds")
  outcomes.push(yield* attempt)
  return outcomes
})

for (const completesReservation of [true, false]) {
  const { layer, pets } = store(completesReservation)
  const outcomes = await Effect.runPromise(
    retried.pipe(Effect.provide(layer), Effect.provide(TestClock.layer()))
  )
  console.log(completesReservation ? "one transaction:" : "reservation ignored:", outcomes, pets.length)
}

// Output:
// one transaction: [ 'pet 1', 'pet 1 (replayed)', 'pet 1 (replayed)' ] 1
// reservation ignored: [ 'pet 1', 'IdempotencyRequestInFlight', 'pet 2' ] 2
