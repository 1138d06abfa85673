/**
 * The hot path of the animal catalogue: `GET /v1/pets`, `POST /v1/pets` and `GET /v1/pets/{petId}` as
 * plain `HttpRouter` routes. `HttpApi` stays the definition of these operations (OpenAPI, the typed
 * client, `PetsHandlers`); serving them through it costs about three times the CPU of a route, mostly
 * in per-request allocation, so the server answers them here.
 *
 * Nothing is written twice: the routes decode with the definition's schemas, composed as `HttpApi`
 * composes them (query values from single-or-repeated text, the body through its JSON codec), run the
 * same checks in the same order (key, then body, then headers and fields), call the same operations
 * (`PetsOperations`) and answer the same error bodies. A test sends both servers the same requests,
 * good and bad, and fails on any difference in status, headers or body.
 */
import {
  type ApiError,
  CreatePetHeaders,
  getPetDeprecationHeaders,
  type InvalidRequest,
  ListPetsParameters
} from "@petstore/api"
import {
  type IdempotencyRepository,
  NewPet,
  type Pet,
  type PetRepository,
  type Pets
} from "@petstore/catalogue"
import { Context, Effect, Schema } from "effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { HttpServerRequest, ParsedSearchParams } from "effect/http/HttpServerRequest"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import type { RequestAdmission } from "./AuthenticationLive.js"
import { errorResponse, invalidRequestForIssue, type Refusal, refusalResponse } from "./ErrorResponse.js"
import { checkJsonBody } from "./JsonBodyLive.js"
import { createPetAnswer, getPetByPath, listPetsPage } from "./PetsOperations.js"
import { appendResponseHeaders, jsonResponse, type ResponseHeaders } from "./ResponseHeaders.js"

const decodeListParameters = Schema.decodeUnknownEffect(Schema.toCodecArrayFromSingle(ListPetsParameters))
const decodeCreateHeaders = Schema.decodeUnknownEffect(CreatePetHeaders)
const decodeNewPet = Schema.decodeUnknownEffect(Schema.toCodecJson(NewPet))

const invalid = (error: Schema.SchemaError): InvalidRequest => invalidRequestForIssue(error.issue)

/**
 * An animal's wire form is its fields in the schema's order, which are exactly the own properties its
 * class constructor gives it, in that order: `JSON.stringify` writes what encoding through the schema
 * writes, without building a copy of each animal (a list of keys to keep would only slow it down).
 */
const json = (
  body: Pet | typeof Pets.Type,
  status: number,
  headers: ResponseHeaders
): HttpServerResponse.HttpServerResponse => jsonResponse(JSON.stringify(body), status, headers)

type Requires = PetRepository | IdempotencyRepository

/**
 * The answer of an admitted request, whatever its operation's outcome: every answer carries the
 * admission's headers (rate limits; the deprecation of `GET /v1/pets/{petId}`), the contract's error
 * bodies included. A failure that is not the operation's own (a body that cannot be read, a defect)
 * is left to the lifecycle to answer, as on any route; the headers go with it as pre-response headers.
 */
const answering = (
  headers: ResponseHeaders,
  operation: Effect.Effect<HttpServerResponse.HttpServerResponse, ApiError, Requires>
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, Requires> =>
  Effect.catch(operation, (error) => Effect.succeed(errorResponse(error, headers))).pipe(
    Effect.tapCause(() => appendResponseHeaders(headers))
  )

const refused = (refusal: Refusal) => Effect.succeed(refusalResponse(refusal))

const listPets = (admit: RequestAdmission) =>
  Effect.withFiber<HttpServerResponse.HttpServerResponse, never, Requires>((fiber) => {
    const request = Context.getUnsafe(fiber.context, HttpServerRequest)
    const query = Context.getUnsafe(fiber.context, ParsedSearchParams)
    return Effect.matchEffect(admit(request), {
      onFailure: refused,
      onSuccess: ({ headers }) =>
        answering(
          headers,
          Effect.mapError(decodeListParameters(query), invalid).pipe(
            Effect.flatMap(listPetsPage),
            Effect.map((page) =>
              json(page.pets, 200, page.link === undefined ? headers : { link: page.link, ...headers })
            )
          )
        )
    })
  })

const createPet = (admit: RequestAdmission) =>
  Effect.withFiber<HttpServerResponse.HttpServerResponse, never, Requires>((fiber) => {
    const request = Context.getUnsafe(fiber.context, HttpServerRequest)
    return Effect.matchEffect(admit(request), {
      onFailure: refused,
      onSuccess: ({ caller, headers }) =>
        answering(
          headers,
          Effect.flatMap(checkJsonBody(request), (body) =>
            Effect.flatMap(Effect.mapError(decodeCreateHeaders(request.headers), invalid), (createHeaders) =>
              Effect.flatMap(Effect.mapError(decodeNewPet(body.json), invalid), (payload) =>
                Effect.map(createPetAnswer(caller, payload, createHeaders), (created) =>
                  json(created.pet, 201, { ...created.headers, ...headers })
                )
              )
            )
          )
        )
    })
  })

/** `GET /v1/pets/{petId}` is deprecated: every one of its answers says so, refusals included. */
const withDeprecation = (headers: ResponseHeaders): ResponseHeaders => ({
  ...getPetDeprecationHeaders,
  ...headers
})

const getPet = (admit: RequestAdmission) =>
  Effect.withFiber<HttpServerResponse.HttpServerResponse, never, Requires>((fiber) => {
    const request = Context.getUnsafe(fiber.context, HttpServerRequest)
    const { params } = Context.getUnsafe(fiber.context, HttpRouter.RouteContext)
    return Effect.matchEffect(admit(request), {
      onFailure: ({ error, headers }) => refused({ error, headers: withDeprecation(headers) }),
      onSuccess: ({ headers }) => {
        const answerHeaders = withDeprecation(headers)
        return answering(
          answerHeaders,
          Effect.map(getPetByPath(params.petId ?? ""), (pet) => json(pet, 200, answerHeaders))
        )
      }
    })
  })

/** The three routes, checking keys and limits with `admit` (`makeRequestAdmission`). */
export const petsRoutes = (admit: RequestAdmission) => [
  HttpRouter.route("GET", "/v1/pets", listPets(admit)),
  HttpRouter.route("POST", "/v1/pets", createPet(admit)),
  HttpRouter.route("GET", "/v1/pets/:petId", getPet(admit))
]
