/**
 * A hot route is built from its endpoint as the served contract holds it, and from nothing else: moved
 * in the contract, it moves; built from an endpoint the API does not serve, or one whose middleware or
 * path it cannot honour as `HttpApi` does, it is refused when the routes are built; it answers only the
 * errors its endpoint declares.
 */
import { describe, expect, it } from "@effect/vitest"
import { Authentication, apiError, Conflict, InvalidRequest, PetsGroup, PetstoreApi } from "@petstore/api"
import type { Caller } from "@petstore/kernel"
import { Cause, Effect, Exit, Schema } from "effect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import type { RequestAdmission } from "../src/AuthenticationLive.js"
import { hotOperation, hotRoutes } from "../src/HotRoute.js"
import { petsHotOperations } from "../src/PetsRoutes.js"

/** Routes are only built here, never asked: no request is admitted. */
const noAdmission: RequestAdmission = () => Effect.die("no request is answered here")

const unanswered = () => Effect.die("no request is answered here")

class Audit extends HttpApiMiddleware.Service<Audit>()("test/Audit") {}

const apiOf = (endpoint: HttpApiEndpoint.Top) =>
  HttpApi.make("test").add(HttpApiGroup.make("test").add(endpoint))

describe("hot routes", () => {
  it("follow their endpoints when the contract moves them", () => {
    const Moved = HttpApi.make("moved").add(PetsGroup.prefix("/v2"))
    const movedEndpoints = Object.values(Moved.groups.pets.endpoints)
    const moved = petsHotOperations.map((operation) => {
      const endpoint = movedEndpoints.find(
        (candidate) => candidate.identifier === operation.endpoint.identifier
      )
      if (endpoint === undefined) throw new Error(`${operation.endpoint.identifier} is not in the moved API`)
      return { ...operation, endpoint }
    })
    expect(
      hotRoutes(Moved, moved, noAdmission)
        .map(({ route }) => `${route.method} ${route.path}`)
        .sort()
    ).toEqual(["GET /v2/v1/pets", "GET /v2/v1/pets/:petId", "POST /v2/v1/pets"])
  })

  it("are refused for an endpoint the API does not serve as it is", () => {
    const Moved = HttpApi.make("moved").add(PetsGroup.prefix("/v2"))
    expect(() => hotRoutes(Moved, petsHotOperations, noAdmission)).toThrow(
      /not an endpoint of the API moved as it is served/
    )
  })

  it("are refused for middleware they cannot honour, wherever it runs", () => {
    const outside = PetstoreApi.groups.pets.endpoints.listPets.middleware(Audit)
    expect(() => hotRoutes(apiOf(outside), [hotOperation(outside, unanswered)], noAdmission)).toThrow(
      /checks the key first; its middleware is test\/Audit, @petstore\/api\/Authentication/
    )
    const inside = HttpApiEndpoint.get("audited", "/audited", { success: Schema.String })
      .middleware(Audit)
      .middleware(Authentication)
    expect(() => hotRoutes(apiOf(inside), [hotOperation(inside, unanswered)], noAdmission)).toThrow(
      /cannot honour its middleware test\/Audit/
    )
    // (Without middleware it does not even have the type of one endpoint among others.)
    const open = HttpApiEndpoint.get("open", "/open", {
      success: Schema.String
    }) as unknown as HttpApiEndpoint.Top
    expect(() => hotRoutes(apiOf(open), [hotOperation(open, unanswered)], noAdmission)).toThrow(
      /checks the key first; its middleware is none/
    )
  })

  it("are refused for a path the router would read otherwise than HttpApi", () => {
    const file = HttpApiEndpoint.get("file", "/files/:name.json", {
      params: { name: Schema.String },
      success: Schema.String
    }).middleware(Authentication)
    expect(() => hotRoutes(apiOf(file), [hotOperation(file, unanswered)], noAdmission)).toThrow(
      /only whole-segment, declared path parameters/
    )
  })

  it("are refused for an endpoint with more than one success", () => {
    const both = HttpApiEndpoint.get("both", "/both", {
      success: [Schema.String, Schema.Number.pipe(HttpApiSchema.status(202))]
    }).middleware(Authentication)
    expect(() => hotRoutes(apiOf(both), [hotOperation(both, unanswered)], noAdmission)).toThrow(
      /exactly one success schema/
    )
  })

  it.effect("answer an error their endpoint declares, and die on one it does not, as HttpApi does", () =>
    Effect.gen(function* () {
      const admitted: RequestAdmission = () =>
        Effect.succeed({ caller: { account: "alice", keyId: "key-1" } as unknown as Caller, headers: {} })
      const { listPets } = PetstoreApi.groups.pets.endpoints
      const failingWith = (error: InvalidRequest | Conflict) => {
        const [built] = hotRoutes(
          PetstoreApi,
          // A cast only can make a hot operation fail with an error its endpoint does not declare.
          [hotOperation(listPets, () => Effect.fail(error as InvalidRequest))],
          admitted
        )
        if (built === undefined) throw new Error("no route")
        return built.route.handler.pipe(
          Effect.provideService(
            HttpServerRequest.HttpServerRequest,
            HttpServerRequest.fromWeb(new Request("http://localhost/v1/pets"))
          ),
          Effect.provideService(HttpServerRequest.ParsedSearchParams, {}),
          Effect.exit
        )
      }
      const declared = yield* failingWith(apiError(InvalidRequest, "invalid_request", "limit: wrong"))
      expect(Exit.isSuccess(declared) && declared.value.status).toBe(400)
      const undeclared = yield* failingWith(apiError(Conflict, "conflict", "not listPets's"))
      expect(Exit.isFailure(undeclared) && Cause.pretty(undeclared.cause)).toMatch(
        /hot route listPets \(GET \/v1\/pets\) does not declare the error conflict/
      )
    })
  )
})
