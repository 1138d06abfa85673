/**
 * When storage fails, requests are answered 503 `unavailable` with `Retry-After`, `/readyz` says so,
 * and nothing of the underlying error (addresses, SQL) reaches the client.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { brokenStorage } from "./support/BrokenStorage.js"
import { json, TestServer, TestServerLive } from "./support/TestServer.js"

layer(TestServerLive(brokenStorage()), { excludeTestServices: true })("storage outage", (it) => {
  it.effect("every operation answers 503 with Retry-After and no internal detail", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const requests: ReadonlyArray<readonly [string, RequestInit]> = [
        ["/v1/pets", {}],
        ["/v1/pets/1", {}],
        [
          "/v1/pets",
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: '{"name":"A","categoryId":1}'
          }
        ],
        [
          "/v1/pets",
          {
            method: "POST",
            headers: { "content-type": "application/json", "idempotency-key": "k1" },
            body: '{"name":"A","categoryId":1}'
          }
        ],
        ["/v1/claims", {}],
        [
          "/v1/claims",
          { method: "POST", headers: { "content-type": "application/json" }, body: '{"apex":"example.com"}' }
        ],
        ["/v1/claims/example.com", {}],
        ["/v1/claims/example.com", { method: "DELETE" }],
        ["/v1/claims/example.com/verify", { method: "POST" }],
        ["/v1/projects/outage/events", {}],
        ["/v1/projects/outage/webhooks", {}],
        [
          "/v1/projects/outage/webhooks",
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: '{"url":"https://hooks.example.com/petstore"}'
          }
        ],
        ["/v1/projects/outage/webhooks/wh_abcdefghijklmnopqrstuvwxyz", {}],
        ["/v1/projects/outage/webhooks/wh_abcdefghijklmnopqrstuvwxyz", { method: "DELETE" }],
        ["/v1/projects/outage/webhooks/wh_abcdefghijklmnopqrstuvwxyz/deliveries", {}]
      ]
      // Projects stay in memory: the events and webhooks of one that exists are what storage cannot answer.
      const created = yield* server.request("/v1/projects", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"id":"outage","plan":"pro"}'
      })
      expect(created.status).toBe(201)
      for (const [path, init] of requests) {
        const response = yield* server.request(path, init)
        const text = yield* Effect.promise(() => response.text())
        expect(response.status).toBe(503)
        expect(response.headers.get("retry-after")).toBe("5")
        expect(JSON.parse(text)).toEqual({ code: "unavailable", message: expect.any(String), status: 503 })
        expect(text).not.toMatch(/10\.1\.2\.3|SELECT|ECONNREFUSED/)
      }
    })
  )

  it.effect("/readyz answers 503 while /healthz stays 200", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const ready = yield* server.request("/readyz", { key: null })
      expect(ready.status).toBe(503)
      expect(yield* json(ready)).toMatchObject({ code: "unavailable", status: 503 })
      const alive = yield* server.request("/healthz", { key: null })
      expect(alive.status).toBe(200)
    })
  )
})
