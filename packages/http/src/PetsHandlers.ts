/**
 * The animal catalogue's HTTP handlers: decode is done by the `HttpApi`, the rules by the domain;
 * what remains here is mapping domain outcomes to statuses and headers.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Conflict, CurrentCaller, Gone, IdempotencyKeyReused, NotFound, PetstoreApi } from "@petstore/api"
import {
  createPet,
  currentGetPetAvailability,
  defaultListLimit,
  getPet,
  isPositiveSafeIntegerText,
  listPets,
  type PetId,
  PetId as PetIdSchema,
  type PetQuery
} from "@petstore/domain"
import { Effect, Option, Schema } from "effect"
import { appendResponseHeaders } from "./ResponseHeaders.js"
import { storageUnavailable } from "./StorageUnavailable.js"

/** The `Link` to the next page keeps the caller's other parameters and moves the cursor. */
export const nextPageLink = (query: PetQuery, nextAfter: PetId): string => {
  const parameters = new URLSearchParams({ limit: String(query.limit) })
  if (Option.isSome(query.status)) parameters.set("status", query.status.value)
  parameters.set("after", String(nextAfter))
  return `</v1/pets?${parameters.toString()}>; rel="next"`
}

const decodePetId = Schema.decodeOption(PetIdSchema)

/** Path text to an id; anything that is not a canonical positive safe integer names no animal. */
const petIdFromPath = (text: string): Option.Option<PetId> =>
  isPositiveSafeIntegerText(text) ? decodePetId(Number(text)) : Option.none()

const notFound = (text: string) =>
  new NotFound({ code: "not_found", message: `no animal with id ${JSON.stringify(text)}`, status: 404 })

const gone = new Gone({
  code: "gone",
  message: "GET /v1/pets/{petId} was removed on 2030-12-05; use GET /v1/pets",
  status: 410
})

export const PetsHandlers = HttpApiBuilder.group(PetstoreApi, "pets", (handlers) =>
  handlers
    .handle("listPets", ({ urlParams }) =>
      Effect.gen(function* () {
        const query: PetQuery = {
          limit: urlParams.limit ?? defaultListLimit,
          status: Option.fromNullable(urlParams.status),
          after: Option.fromNullable(urlParams.after)
        }
        const page = yield* listPets(query)
        if (Option.isSome(page.nextAfter))
          yield* appendResponseHeaders({ link: nextPageLink(query, page.nextAfter.value) })
        return page.pets
      }).pipe(Effect.catchTag("StorageError", storageUnavailable))
    )
    .handle("createPet", ({ payload, headers }) =>
      Effect.gen(function* () {
        const caller = yield* CurrentCaller
        const { pet, replayed } = yield* createPet(
          caller,
          payload,
          Option.fromNullable(headers["idempotency-key"])
        )
        yield* appendResponseHeaders(
          replayed
            ? { location: `/v1/pets/${pet.id}`, "idempotent-replayed": "true" }
            : { location: `/v1/pets/${pet.id}` }
        )
        return pet
      }).pipe(
        Effect.catchTags({
          IdempotencyKeyReused: () =>
            Effect.fail(
              new IdempotencyKeyReused({
                code: "idempotency_key_reused",
                message: "Idempotency-Key: was already used with a different body",
                status: 422
              })
            ),
          IdempotencyRequestInFlight: () =>
            Effect.fail(
              new Conflict({
                code: "conflict",
                message: "Idempotency-Key: a request with this key is still in progress; retry later",
                status: 409
              })
            ),
          StorageError: storageUnavailable
        })
      )
    )
    .handle("getPet", ({ path }) =>
      Option.match(petIdFromPath(path.petId), {
        // No id can be named after the removal date either: the operation itself is gone.
        onNone: () =>
          Effect.flatMap(currentGetPetAvailability, (availability) =>
            Effect.fail(availability === "removed" ? gone : notFound(path.petId))
          ),
        onSome: (id) =>
          getPet(id).pipe(
            Effect.catchTags({
              PetNotFound: () => Effect.fail(notFound(path.petId)),
              GetPetRemoved: () => Effect.fail(gone),
              StorageError: storageUnavailable
            })
          )
      })
    )
)
