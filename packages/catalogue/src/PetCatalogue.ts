/**
 * The animal catalogue's use cases, written against the ports only.
 */

import type { Caller, StorageError } from "@petstore/kernel"
import { Clock, Effect, Option, Schedule } from "effect"
import { GetPetRemoved, IdempotencyKeyReused, IdempotencyRequestInFlight, PetNotFound } from "./Errors.js"
import { currentGetPetAvailability } from "./GetPetLifecycle.js"
import { type IdempotencyKey, type IdempotencyScope, idempotencyInFlightLease } from "./Idempotency.js"
import { IdempotencyRepository } from "./IdempotencyRepository.js"
import type { NewPet, Pet } from "./Pet.js"
import type { PetId } from "./PetId.js"
import type { PetPage, PetQuery } from "./PetQuery.js"
import { PetRepository } from "./PetRepository.js"

/**
 * What makes two creation requests "the same body": the fields that are stored, in a fixed order.
 * Unknown fields are ignored by the API, so they do not count either.
 */
export const newPetFingerprint = (pet: NewPet): string =>
  JSON.stringify([pet.name, pet.categoryId, pet.status ?? null])

export interface CreatedPet {
  readonly pet: Pet
  /** True when this answer replays an earlier request with the same idempotency key. */
  readonly replayed: boolean
}

/** How often a reservation that could not be given back at once is tried again, and for how long. */
const releaseRetries = Schedule.spaced("1 second").pipe(Schedule.upTo({ duration: idempotencyInFlightLease }))

/**
 * Gives a failed creation's key back: at once, or, when storage cannot be reached either (the usual
 * reason the creation failed), in the background until it can, for as long as the reservation could
 * block. Otherwise a client retrying after an outage would be told "still in flight" until the lease
 * ran out. Only this reservation is released (`reservedAt`), so a late release never frees a key
 * that another request has taken over since.
 */
const giveBackReservation = (
  keys: IdempotencyRepository["Service"],
  scope: IdempotencyScope,
  reservedAt: Date
): Effect.Effect<void> =>
  keys.release(scope, reservedAt).pipe(
    Effect.catch(() =>
      Effect.asVoid(
        Effect.forkDetach(Effect.ignore(Effect.retry(keys.release(scope, reservedAt), releaseRetries)))
      )
    ),
    Effect.asVoid
  )

/**
 * Gives back a reservation whose making did not finish (the deadline cut it off, or storage failed
 * mid-way): it may not exist, or it may still be committed later, when a hung database comes back,
 * after a release has found nothing. So the release is repeated in the background, every second,
 * until it drops the reservation or the reservation could no longer block anyone.
 */
const giveBackUnfinishedReservation = (
  keys: IdempotencyRepository["Service"],
  scope: IdempotencyScope,
  reservedAt: Date
): Effect.Effect<void> =>
  Effect.asVoid(
    Effect.forkDetach(
      keys.release(scope, reservedAt).pipe(
        Effect.orElseSucceed(() => false),
        Effect.repeat({ schedule: releaseRetries, until: (released) => released })
      )
    )
  )

export const listPets = (query: PetQuery): Effect.Effect<PetPage, StorageError, PetRepository> =>
  Effect.flatMap(PetRepository, (pets) => pets.list(query))

// `Effect.fnUntraced` builds the generator function once: `Effect.gen(function* () {…})` inside an
// arrow makes a new one per request, with its own prototype and hidden class that only a full garbage
// collection frees, which on the hot routes grew the heap several times faster than the work needs.
export const getPet: (
  id: PetId
) => Effect.Effect<Pet, PetNotFound | GetPetRemoved | StorageError, PetRepository> = Effect.fnUntraced(
  function* (id: PetId) {
    if ((yield* currentGetPetAvailability) === "removed") return yield* new GetPetRemoved()
    const pets = yield* PetRepository
    const found = yield* pets.findById(id)
    if (Option.isNone(found)) return yield* new PetNotFound({ petId: id })
    return found.value
  }
)

export const createPet: (
  caller: Caller,
  pet: NewPet,
  idempotencyKey: Option.Option<IdempotencyKey>
) => Effect.Effect<
  CreatedPet,
  IdempotencyKeyReused | IdempotencyRequestInFlight | StorageError,
  PetRepository | IdempotencyRepository
> = Effect.fnUntraced(function* (caller: Caller, pet: NewPet, idempotencyKey: Option.Option<IdempotencyKey>) {
  const pets = yield* PetRepository
  if (Option.isNone(idempotencyKey)) {
    return { pet: yield* pets.create(pet, Option.none()), replayed: false }
  }
  const scope: IdempotencyScope = { account: caller.account, key: idempotencyKey.value }
  const keys = yield* IdempotencyRepository
  const now = new Date(yield* Clock.currentTimeMillis)
  const decision = yield* keys
    .reserve(scope, newPetFingerprint(pet), now)
    .pipe(Effect.onError(() => giveBackUnfinishedReservation(keys, scope, now)))
  switch (decision._tag) {
    case "KeyReused":
      return yield* new IdempotencyKeyReused()
    case "InFlight":
      return yield* new IdempotencyRequestInFlight()
    case "Replay": {
      const original = yield* pets.findById(decision.petId)
      // Animals are never deleted, so the original is there; if storage lost it, create afresh.
      if (Option.isSome(original)) return { pet: original.value, replayed: true }
      break
    }
    case "Proceed":
      break
  }
  const created = yield* pets
    .create(pet, Option.some(scope))
    .pipe(Effect.onError(() => giveBackReservation(keys, scope, now)))
  return { pet: created, replayed: false }
})
