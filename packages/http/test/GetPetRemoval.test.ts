/**
 * From 2030-12-05T00:00:00Z by the service's clock, `GET /v1/pets/{petId}` answers 410 with its
 * deprecation headers; the day before it still works. The server runs on a fixed clock.
 */
import { describe, expect, layer } from "@effect/vitest"
import { MemoryStore } from "@petstore/store-memory"
import { Effect, Layer } from "effect"
import { fixedClockLayer } from "./support/FixedClock.js"
import { json, TestServer, TestServerLive } from "./support/TestServer.js"

const serverOn = (at: string) =>
  TestServerLive(MemoryStore.layer).pipe(Layer.provide(fixedClockLayer(new Date(at))))

describe("the removal of GET /v1/pets/{petId}", () => {
  layer(serverOn("2030-12-04T23:59:59.999Z"), { excludeTestServices: true })(
    "the last millisecond before",
    (it) => {
      it.effect("still answers", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const created = (yield* json(
            yield* server.request("/v1/pets", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ name: "Late", categoryId: 1 })
            })
          )) as { id: number }
          const response = yield* server.request(`/v1/pets/${created.id}`)
          expect(response.status).toBe(200)
        })
      )
    }
  )

  layer(serverOn("2030-12-05T00:00:00.000Z"), { excludeTestServices: true })(
    "from the removal date",
    (it) => {
      it.effect("answers 410 gone with the same headers, for existing, missing and malformed ids alike", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          for (const id of ["1", "987654", "abc"]) {
            const response = yield* server.request(`/v1/pets/${id}`)
            expect(response.status).toBe(410)
            expect(yield* json(response)).toMatchObject({ code: "gone", status: 410 })
            expect(response.headers.get("deprecation")).toBe("@1795564800")
            expect(response.headers.get("sunset")).toBe("Thu, 05 Dec 2030 00:00:00 GMT")
            expect(response.headers.get("link")).toBe('</v1/pets>; rel="successor-version"')
          }
          const unauthorized = yield* server.request("/v1/pets/1", { key: null })
          expect(unauthorized.status).toBe(401)
          expect(unauthorized.headers.get("sunset")).toBe("Thu, 05 Dec 2030 00:00:00 GMT")
          const list = yield* server.request("/v1/pets")
          expect(list.status).toBe(200)
        })
      )
    }
  )
})
