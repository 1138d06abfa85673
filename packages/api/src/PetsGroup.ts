/**
 * The animal catalogue: list, create, and the deprecated get-by-id.
 */
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
} from "@petstore/catalogue"
import { Schema } from "effect"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { Conflict, Gone, IdempotencyKeyReused, InvalidRequest, NotFound } from "./ApiErrors.js"
import { Authentication } from "./Authentication.js"
import { takesJsonBody } from "./BodyOperation.js"
import { GetPetDeprecation } from "./Deprecation.js"
import { describeParameters, integerParameter, literalParameter } from "./QueryParameters.js"

export const ListPetsParameters = Schema.Struct({
  limit: Schema.optionalKey(
    integerParameter(ListLimit, `must be an integer from ${listLimitMin} to ${listLimitMax}`)
  ),
  status: Schema.optionalKey(literalParameter(PetStatus, "must be one of available, pending, sold")),
  after: Schema.optionalKey(integerParameter(PetId, `must be an integer from 1 to ${maxSafeInteger}`))
})

export const CreatePetHeaders = Schema.Struct({
  "idempotency-key": Schema.optionalKey(IdempotencyKey)
})

const listPets = HttpApiEndpoint.get("listPets", "/pets", {
  query: ListPetsParameters,
  success: Pets,
  error: InvalidRequest
})
  .middleware(Authentication)
  .annotate(OpenApi.Summary, "List all animals")
  .annotate(
    OpenApi.Description,
    'Animals in ascending id order. When more match, the `Link` header has the `rel="next"` page.'
  )
  .annotate(
    OpenApi.Transform,
    describeParameters({
      limit: {
        value: ListLimit,
        description: `How many animals a page holds at most (${listLimitMin} to ${listLimitMax}).`
      },
      status: { value: PetStatus },
      after: {
        value: PetId,
        description:
          'Keyset cursor: only animals whose id is greater. Taken from the `Link rel="next"` header.'
      }
    })
  )

const createPet = takesJsonBody(
  HttpApiEndpoint.post("createPet", "/pets", {
    payload: NewPet,
    headers: CreatePetHeaders,
    success: Pet.pipe(HttpApiSchema.status(201)),
    error: [InvalidRequest, Conflict, IdempotencyKeyReused]
  }).annotate(OpenApi.Summary, "Add an animal")
)

const getPet = HttpApiEndpoint.get("getPet", "/pets/:petId", {
  params: { petId: Schema.String.annotate({ description: "The animal's id (int64)." }) },
  success: Pet,
  error: [NotFound, Gone]
})
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
