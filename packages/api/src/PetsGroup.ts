/**
 * The animal catalogue: list, create, and the deprecated get-by-id.
 */
import { IdempotencyKey, maxSafeInteger, NewPet, Pet, PetId, PetStatus, Pets } from "@petstore/catalogue"
import { Schema } from "effect"
import { flow } from "effect/Function"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { Conflict, Gone, IdempotencyKeyReused, InvalidRequest, NotFound } from "./ApiErrors.js"
import { Authentication } from "./Authentication.js"
import { takesJsonBody } from "./BodyOperation.js"
import { GetPetDeprecation, getPetDeprecationDocumentation, getPetRemovalDay } from "./Deprecation.js"
import { responseHeader, withHeadersOnEveryResponse, withResponseHeaders } from "./OpenApiDocument.js"
import { limitDescription, limitParameter, nextPageHeaders } from "./Paging.js"
import { describeParameters, integerParameter, literalParameter } from "./QueryParameters.js"

export const ListPetsParameters = Schema.Struct({
  limit: Schema.optionalKey(limitParameter),
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
    flow(
      describeParameters({
        limit: limitDescription("animals"),
        status: { value: PetStatus },
        after: {
          value: PetId,
          description:
            'Keyset cursor: only animals whose id is greater. Taken from the `Link rel="next"` header.'
        }
      }),
      withResponseHeaders(nextPageHeaders("animals", '</v1/pets?limit=20&after=123>; rel="next"'))
    )
  )

const createPet = takesJsonBody(
  HttpApiEndpoint.post("createPet", "/pets", {
    payload: NewPet,
    headers: CreatePetHeaders,
    success: Pet.pipe(HttpApiSchema.status(201)),
    error: [InvalidRequest, Conflict, IdempotencyKeyReused]
  })
    .annotate(OpenApi.Summary, "Add an animal")
    .annotate(
      OpenApi.Transform,
      withResponseHeaders({
        201: {
          Location: responseHeader("Where the created animal is.", "/v1/pets/123"),
          "Idempotent-Replayed": responseHeader(
            "`true` when this answer replays an earlier request with the same Idempotency-Key."
          )
        }
      })
    )
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
    `Get an animal (deprecated: removed on ${getPetRemovalDay}; use GET /pets with a status filter)`
  )
  .annotate(OpenApi.Deprecated, true)
  .annotate(OpenApi.Transform, withHeadersOnEveryResponse(getPetDeprecationDocumentation))

export class PetsGroup extends HttpApiGroup.make("pets")
  .add(listPets)
  .add(createPet)
  .add(getPet)
  .prefix("/v1") {}
