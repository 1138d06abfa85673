/**
 * Every request has a server-side deadline: a dependency that hangs yields a 503 within it, never a
 * client left waiting.
 */
import { expect, layer } from "@effect/vitest"
import { IdempotencyRepository, PetRepository, StorageHealth } from "@petstore/domain"
import {
  MemoryApiKeyRepository,
  MemoryCertificateStore,
  MemoryDomainRepository,
  MemoryProjectRepository
} from "@petstore/store-memory"
import { Clock, Effect, Layer } from "effect"
import { json, TestServer, TestServerLive } from "./support/TestServer.js"

const HangingStorage = Layer.mergeAll(
  Layer.succeed(PetRepository, {
    create: () => Effect.never,
    findById: () => Effect.never,
    list: () => Effect.never
  }),
  Layer.succeed(IdempotencyRepository, { reserve: () => Effect.never, release: () => Effect.never }),
  Layer.succeed(StorageHealth, { check: Effect.never }),
  MemoryApiKeyRepository.layer,
  MemoryProjectRepository.layer,
  MemoryDomainRepository.layer,
  MemoryCertificateStore.layer
)

layer(TestServerLive(HangingStorage, { requestTimeout: "1 second" }), { excludeTestServices: true })(
  "a hanging dependency",
  (it) => {
    it.effect("is answered 503 at the deadline", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        for (const path of ["/v1/pets", "/v1/pets/1"]) {
          const started = yield* Clock.currentTimeMillis
          const response = yield* server.request(path)
          const elapsed = (yield* Clock.currentTimeMillis) - started
          expect(response.status).toBe(503)
          expect(response.headers.get("retry-after")).toBe("5")
          expect(yield* json(response)).toMatchObject({ code: "unavailable", status: 503 })
          expect(elapsed).toBeGreaterThanOrEqual(900)
          expect(elapsed).toBeLessThan(4_000)
        }
      })
    )

    it.effect("/readyz answers 503 within its own shorter bound", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const response = yield* server.request("/readyz", { key: null })
        expect(response.status).toBe(503)
      })
    )
  }
)
