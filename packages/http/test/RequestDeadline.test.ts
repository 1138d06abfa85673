/**
 * Every request has a server-side deadline: a dependency that hangs yields a 503 within it, never a
 * client left waiting, and the hung work is interrupted (it holds nothing past the deadline).
 */
import { expect, layer } from "@effect/vitest"
import { IdempotencyRepository, PetRepository } from "@petstore/catalogue"
import { StorageHealth } from "@petstore/kernel"
import {
  MemoryApiKeyRepository,
  MemoryCertificateStore,
  MemoryClaimRepository,
  MemoryDomainRepository,
  MemoryOwnershipRepository,
  MemoryProjectRepository
} from "@petstore/store-memory"
import { WebhookRepository } from "@petstore/webhooks"
import { Clock, Effect, Layer } from "effect"
import { json, TestServer, TestServerLive } from "./support/TestServer.js"

/** How many hung storage calls were interrupted, counted by the storage itself. */
let interrupted = 0
const hang = Effect.never.pipe(
  Effect.onInterrupt(() =>
    Effect.sync(() => {
      interrupted += 1
    })
  )
)

const HangingStorage = Layer.mergeAll(
  Layer.succeed(PetRepository, {
    create: () => hang,
    findById: () => hang,
    list: () => hang
  }),
  Layer.succeed(IdempotencyRepository, {
    reserve: () => Effect.never,
    release: () => Effect.never,
    purge: () => Effect.never
  }),
  Layer.succeed(StorageHealth, { check: Effect.never }),
  Layer.succeed(WebhookRepository, {
    insert: () => Effect.never,
    listByProject: () => Effect.never,
    find: () => Effect.never,
    enable: () => Effect.never,
    rotateSecret: () => Effect.never,
    remove: () => Effect.never,
    listAttempts: () => Effect.never
  }),
  MemoryApiKeyRepository.layer,
  MemoryProjectRepository.layer,
  MemoryDomainRepository.layer,
  MemoryClaimRepository.layer,
  MemoryOwnershipRepository.layer,
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
          expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8")
          expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
          expect(yield* json(response)).toEqual({
            code: "unavailable",
            message: "the request took too long; retry later",
            status: 503
          })
          expect(elapsed).toBeGreaterThanOrEqual(900)
          expect(elapsed).toBeLessThan(4_000)
        }
        // Both hung storage calls were interrupted at their deadline, not left running.
        yield* Effect.sleep("100 millis")
        expect(interrupted).toBe(2)
        const traced = yield* server.request("/v1/pets", { headers: { "x-request-id": "trace-deadline" } })
        expect(traced.status).toBe(503)
        expect(traced.headers.get("x-request-id")).toBe("trace-deadline")
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
