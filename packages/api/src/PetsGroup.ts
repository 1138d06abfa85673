/**
 * The animal catalogue: list, create, and the deprecated get-by-id.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  IdempotencyKey,
  ListLimit,
  listLimitMax,
  listLimitMin,
  maxSafeInteger,
  NewPet,
  Pet,
  PetId,
  PetStatus,
  Pets
} from "@petstore/domain"
import { Schema } from "effect"
import { Conflict, Gone, IdempotencyKeyReused, InvalidRequest, NotFound } from "./ApiErrors.js"
import { Authentication } from "./Authentication.js"
import { takesJsonBody } from "./BodyOperation.js"
import { GetPetDeprecation } from "./Deprecation.js"
import { integerParameter, literalParameter } from "./QueryParameters.js"

export const ListPetsParameters = Schema.Struct({
  limit: Schema.optional(
    integerParameter(ListLimit, `must be an integer from ${listLimitMin} to ${listLimitMax}`)
  ).annotations({
    description: `How many animals a page holds at most (${listLimitMin} to ${listLimitMax}).`
  }),
  status: Schema.optional(literalParameter(PetStatus, "must be one of available, pending, sold")),
  after: Schema.optional(
    integerParameter(PetId, `must be an integer from 1 to ${maxSafeInteger}`)
  ).annotations({
    description: 'Keyset cursor: only animals whose id is greater. Taken from the `Link rel="next"` header.'
  })
})

export const CreatePetHeaders = Schema.Struct({
  "idempotency-key": Schema.optional(IdempotencyKey)
})

const listPets = HttpApiEndpoint.get("listPets", "/pets")
  .setUrlParams(ListPetsParameters)
  .addSuccess(Pets)
  .addError(InvalidRequest)
  .middleware(Authentication)
  .annotate(OpenApi.Summary, "List all animals")
  .annotate(
    OpenApi.Description,
    'Animals in ascending id order. When more match, the `Link` header has the `rel="next"` page.'
  )

const createPet = takesJsonBody(
  HttpApiEndpoint.post("createPet", "/pets")
    .setPayload(NewPet)
    .setHeaders(CreatePetHeaders)
    .addSuccess(Pet, { status: 201 })
    .addError(InvalidRequest)
    .addError(Conflict)
    .addError(IdempotencyKeyReused)
    .annotate(OpenApi.Summary, "Add an animal")
)

const getPet = HttpApiEndpoint.get("getPet", "/pets/:petId")
  .setPath(Schema.Struct({ petId: Schema.String.annotations({ description: "The animal's id (int64)." }) }))
  .addSuccess(Pet)
  .addError(NotFound)
  .addError(Gone)
  .middleware(Authentication)
  // Outermost, so that even a 401 carries the deprecation headers.
  .middleware(GetPetDeprecation)
  .annotate(
    OpenApi.Summary,
    "Get an animal (deprecated: removed on 2030-12-05; use GET /pets with a status filter)"
  )
  .annotate(OpenApi.Deprecated, true)

export class PetsGroup extends HttpApiGroup.make("pets")
  .add(listPets)
  .add(createPet)
  .add(getPet)
  .prefix("/v1") {}
