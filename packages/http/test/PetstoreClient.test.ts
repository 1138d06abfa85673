/**
 * The typed client derived from `PetstoreApi`, against a real server: the same definition on both
 * sides, so a change to one that the other does not follow fails here.
 */
import { expect, layer } from "@effect/vitest"
import { ClaimView, CreateClaimRequest, makePetstoreClient, NewClaimView, NotFound } from "@petstore/api"
import { CategoryId, ListLimit, NewPet, PetName } from "@petstore/catalogue"
import { MemoryStore } from "@petstore/store-memory"
import { Effect } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import { TestServer, TestServerLive } from "./support/TestServer.js"

layer(TestServerLive(MemoryStore.layer), { excludeTestServices: true })("the typed client", (it) => {
  it.effect("creates, lists and gets animals", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const client = yield* makePetstoreClient({ baseUrl: server.baseUrl, apiKey: server.key })
      const created = yield* client.pets.createPet({
        payload: new NewPet({
          name: PetName.make("Typed"),
          categoryId: CategoryId.make(12),
          status: "pending"
        }),
        headers: {}
      })
      expect(created.name).toBe("Typed")
      expect(created.status).toBe("pending")
      const listed = yield* client.pets.listPets({
        query: { status: "pending", limit: ListLimit.make(100) }
      })
      expect(listed.map((pet) => pet.id)).toContain(created.id)
      const [fetched, response] = yield* client.pets.getPet({
        params: { petId: String(created.id) },
        responseMode: "decoded-and-response"
      })
      expect(fetched).toEqual(created)
      expect(response.headers.sunset).toBe("Thu, 05 Dec 2030 00:00:00 GMT")
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )

  it.effect("decodes the documented errors into typed failures", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const client = yield* makePetstoreClient({ baseUrl: server.baseUrl, apiKey: server.key })
      const missing = yield* Effect.flip(client.pets.getPet({ params: { petId: "424242424" } }))
      expect(missing).toMatchObject({ code: "not_found", status: 404 })
      const anonymous = yield* makePetstoreClient({ baseUrl: server.baseUrl })
      const unauthorized = yield* Effect.flip(anonymous.pets.listPets({ query: {} }))
      expect(unauthorized).toMatchObject({ code: "unauthorized", status: 401 })
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )

  it.effect("claims an apex (201, then 200), lists, gets, verifies and deletes it", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const client = yield* makePetstoreClient({ baseUrl: server.baseUrl, apiKey: server.key })
      const claim = (apex: string) => client.claims.createClaim({ payload: new CreateClaimRequest({ apex }) })
      const created = yield* claim("Typed-Client.com")
      expect(created).toBeInstanceOf(NewClaimView)
      expect(created).toMatchObject({
        apex: "typed-client.com",
        status: "pending",
        txt: { name: "_petstore-challenge.typed-client.com" },
        verifiedAt: null
      })
      const existing = yield* claim("typed-client.com")
      expect(existing).toBeInstanceOf(ClaimView)
      expect({ ...existing }).toEqual({ ...created })
      const listed = yield* client.claims.listClaims()
      expect(listed.claims.map((listedClaim) => listedClaim.apex)).toEqual(["typed-client.com"])
      const path = { params: { apex: "typed-client.com" } }
      expect((yield* client.claims.getClaim(path)).txt.value).toBe(created.txt.value)
      // The test server's DNS has no records: the claim stays pending.
      expect((yield* client.claims.verifyClaim(path)).status).toBe("pending")
      yield* client.claims.deleteClaim(path)
      const missing = yield* Effect.flip(client.claims.getClaim(path))
      expect(missing).toBeInstanceOf(NotFound)
      expect(missing).toMatchObject({ code: "not_found", status: 404 })
      const refused = yield* Effect.flip(claim("docs.typed-client.com"))
      expect(refused).toMatchObject({
        code: "invalid_request",
        status: 400,
        message: "apex: must be a registrable domain such as example.com, not a name under one"
      })
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )
})
