/**
 * The animal operations once a request is decoded: the domain's use cases, their outcomes turned into
 * the contract's errors and headers. Both ways of serving the catalogue call these, the `HttpApi`
 * handlers (`PetsHandlers`) and the plain routes of the hot path (`PetsRoutes`), so they cannot
 * answer differently except in how they decode and encode.
 */
import {
  apiError,
  Conflict,
  type CreatePetHeaders,
  Gone,
  getPetRemovalDay,
  IdempotencyKeyReused,
  type ListPetsParameters,
  NotFound
} from "@petstore/api"
import {
  createPet,
  currentGetPetAvailability,
  defaultListLimit,
  getPet,
  isPositiveSafeIntegerText,
  listPets,
  type NewPet,
  type Pet,
  type PetId,
  PetId as PetIdSchema,
  type PetQuery,
  type Pets
} from "@petstore/catalogue"
import type { Caller } from "@petstore/kernel"
import { Effect, Option, Schema } from "effect"
import { nextPageLink } from "./NextPageLink.js"
import { storageUnavailable } from "./StorageUnavailable.js"

/** The `Link` to the next page keeps the caller's other parameters and moves the cursor. */
const nextPetsLink = (query: PetQuery, nextAfter: PetId): string =>
  nextPageLink("/v1/pets", [
    ["limit", query.limit],
    ...(Option.isSome(query.status) ? [["status", query.status.value] as const] : []),
    ["after", nextAfter]
  ])

/** A page of animals and, when more match, the `Link` header to the next one. */
export interface PetsPage {
  readonly pets: typeof Pets.Type
  readonly link: string | undefined
}

export const listPetsPage = (parameters: typeof ListPetsParameters.Type) => {
  const query: PetQuery = {
    limit: parameters.limit ?? defaultListLimit,
    status: Option.fromUndefinedOr(parameters.status),
    after: Option.fromUndefinedOr(parameters.after)
  }
  return listPets(query).pipe(
    Effect.map(
      (page): PetsPage => ({
        pets: page.pets,
        link: Option.isSome(page.nextAfter) ? nextPetsLink(query, page.nextAfter.value) : undefined
      })
    ),
    Effect.catchTag("StorageError", storageUnavailable)
  )
}

/** A created (or replayed) animal and the headers its 201 carries. */
export interface CreatedPetAnswer {
  readonly pet: Pet
  readonly headers: Readonly<Record<string, string>>
}

const keyReused = apiError(
  IdempotencyKeyReused,
  "idempotency_key_reused",
  "Idempotency-Key: was already used with a different body"
)

const keyInFlight = apiError(
  Conflict,
  "conflict",
  "Idempotency-Key: a request with this key is still in progress; retry later"
)

export const createPetAnswer = (caller: Caller, payload: NewPet, headers: typeof CreatePetHeaders.Type) =>
  createPet(caller, payload, Option.fromUndefinedOr(headers["idempotency-key"])).pipe(
    Effect.map(
      ({ pet, replayed }): CreatedPetAnswer => ({
        pet,
        headers: replayed
          ? { location: `/v1/pets/${pet.id}`, "idempotent-replayed": "true" }
          : { location: `/v1/pets/${pet.id}` }
      })
    ),
    Effect.catchTags({
      IdempotencyKeyReused: () => Effect.fail(keyReused),
      IdempotencyRequestInFlight: () => Effect.fail(keyInFlight),
      StorageError: storageUnavailable
    })
  )

const decodePetId = Schema.decodeOption(PetIdSchema)

/** Path text to an id; anything that is not a canonical positive safe integer names no animal. */
const petIdFromPath = (text: string): Option.Option<PetId> =>
  isPositiveSafeIntegerText(text) ? decodePetId(Number(text)) : Option.none()

const notFound = (text: string) =>
  apiError(NotFound, "not_found", `no animal with id ${JSON.stringify(text)}`)

const gone = apiError(
  Gone,
  "gone",
  `GET /v1/pets/{petId} was removed on ${getPetRemovalDay}; use GET /v1/pets`
)

/** The animal a `petId` path segment names (the deprecated operation). */
export const getPetByPath = (petIdText: string) =>
  Option.match(petIdFromPath(petIdText), {
    // No id can be named after the removal date either: the operation itself is gone.
    onNone: () =>
      Effect.flatMap(currentGetPetAvailability, (availability) =>
        Effect.fail(availability === "removed" ? gone : notFound(petIdText))
      ),
    onSome: (id) =>
      getPet(id).pipe(
        Effect.catchTags({
          PetNotFound: () => Effect.fail(notFound(petIdText)),
          GetPetRemoved: () => Effect.fail(gone),
          StorageError: storageUnavailable
        })
      )
  })
