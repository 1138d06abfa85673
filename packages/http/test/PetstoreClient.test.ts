/**
 * The typed client derived from `PetstoreApi`, against a real server: the same definition on both
 * sides, so a change to one that the other does not follow fails here.
 */
import { expect, layer } from "@effect/vitest"
import { makePetstoreClient } from "@petstore/api"
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
})
