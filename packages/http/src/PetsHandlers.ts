/**
 * The animal catalogue's `HttpApi` handlers: decode is done by the `HttpApi`, the rules by the domain,
 * the outcomes by `PetsOperations`; what remains here is handing headers to the response. The server
 * answers these operations through `PetsRoutes` (the hot path); these handlers are the reference the
 * routes are checked against, and serve when the routes are turned off.
 */
import { CurrentCaller, PetstoreApi } from "@petstore/api"
import { Effect } from "effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { createPetAnswer, getPetByPath, listPetsPage } from "./PetsOperations.js"
import { appendResponseHeaders } from "./ResponseHeaders.js"

export const PetsHandlers = HttpApiBuilder.group(PetstoreApi, "pets", (handlers) =>
  handlers
    .handle("listPets", ({ query }) =>
      Effect.flatMap(listPetsPage(query), (page) =>
        page.link === undefined
          ? Effect.succeed(page.pets)
          : Effect.as(appendResponseHeaders({ link: page.link }), page.pets)
      )
    )
    .handle("createPet", ({ payload, headers }) =>
      Effect.flatMap(CurrentCaller, (caller) =>
        Effect.flatMap(createPetAnswer(caller, payload, headers), (created) =>
          Effect.as(appendResponseHeaders(created.headers), created.pet)
        )
      )
    )
    .handle("getPet", ({ params }) => getPetByPath(params.petId))
)
