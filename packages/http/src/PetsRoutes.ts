/**
 * The hot path of the animal catalogue: every operation of the contract's `pets` group answered by a
 * plain `HttpRouter` route (`HotRoute`). `HttpApi` stays the definition of these operations (OpenAPI,
 * the typed client, `PetsHandlers`); serving them through it costs about three times the CPU of a
 * route, mostly in per-request allocation, so the server answers them here.
 *
 * Nothing is written twice: each route is built from its endpoint as `PetstoreApi` holds it (method,
 * path, codecs, success status, errors, middleware), and the operations are `PetsOperations`, which
 * the `HttpApi` handlers call too. A test sends both servers the same requests, good and bad, fails on
 * any difference in status, headers or body, and on any request of these operations that anything but
 * its hot route answered.
 */
import { PetstoreApi } from "@petstore/api"
import type { IdempotencyRepository, PetRepository } from "@petstore/catalogue"
import { Effect } from "effect"
import type { RequestAdmission } from "./AuthenticationLive.js"
import { type HotOperation, type HotRoute, hotOperation, hotRoutes } from "./HotRoute.js"
import { createPetAnswer, getPetByPath, listPetsPage } from "./PetsOperations.js"

type Requires = PetRepository | IdempotencyRepository

const { listPets, createPet, getPet } = PetstoreApi.groups.pets.endpoints

/** The hot operations, by endpoint: the one list the routes are built from. */
export const petsHotOperations: ReadonlyArray<HotOperation<Requires>> = [
  hotOperation(listPets, ({ query }) =>
    Effect.map(listPetsPage(query), (page) => ({
      body: page.pets,
      headers: page.link === undefined ? undefined : { link: page.link }
    }))
  ),
  hotOperation(createPet, ({ caller, payload, headers }) =>
    Effect.map(createPetAnswer(caller, payload, headers), (created) => ({
      body: created.pet,
      headers: created.headers
    }))
  ),
  hotOperation(getPet, ({ params }) => Effect.map(getPetByPath(params.petId), (pet) => ({ body: pet })))
]

/** The routes of the hot operations, checking keys and limits with `admit` (`makeRequestAdmission`). */
export const petsRoutes = (admit: RequestAdmission): ReadonlyArray<HotRoute<Requires>> =>
  hotRoutes(PetstoreApi, petsHotOperations, admit)
