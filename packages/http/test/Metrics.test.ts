/**
 * The API's metrics after requests through a real server: counted by route template (ids do not make
 * new series), method and status, their latency, rate-limit refusals, and the worker's queue depth.
 * They are not served on the public port: `/metrics` there is an unknown route like any other (the
 * app serves them on a listener of its own, `apps/api/test/Process.test.ts`).
 */
import { expect, layer } from "@effect/vitest"
import { MemoryStore } from "@petstore/store-memory"
import { Duration, Effect } from "effect"
import { json, jsonPost, TestServer, TestServerLive } from "./support/TestServer.js"

const limits = {
  perKey: { name: "api-key", limit: 1_000, window: Duration.seconds(60) },
  perAddress: { name: "client-address", limit: 2, window: Duration.seconds(60) }
}

layer(TestServerLive(MemoryStore.layer, { rateLimits: limits }), { excludeTestServices: true })(
  "the API's metrics",
  (it) => {
    it.effect("counts requests by route, method and status, refusals by policy, and the queue depth", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const scrape = server.metrics
        const value = (text: string, series: string): number | undefined => {
          const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `))
          return line === undefined ? undefined : Number(line.slice(series.length + 1))
        }

        expect((yield* server.request("/v1/pets")).status).toBe(200)
        expect((yield* server.request("/v1/pets/1")).status).toBe(404)
        expect((yield* server.request("/v1/pets/2")).status).toBe(404)
        expect((yield* server.request("/nowhere")).status).toBe(404)
        for (let i = 0; i < 3; i++) yield* server.request("/v1/pets", { key: null })
        const before = yield* scrape
        expect(
          value(before, 'petstore_http_requests_total{route="/v1/pets",method="GET",status="200"}')
        ).toBe(1)
        expect(
          value(before, 'petstore_http_requests_total{route="/v1/pets/:petId",method="GET",status="404"}')
        ).toBe(2)
        expect(
          value(before, 'petstore_http_requests_total{route="unmatched",method="GET",status="404"}')
        ).toBe(1)
        expect(
          value(before, 'petstore_http_requests_total{route="/v1/pets",method="GET",status="401"}')
        ).toBe(2)
        expect(
          value(before, 'petstore_http_requests_total{route="/v1/pets",method="GET",status="429"}')
        ).toBe(1)
        expect(value(before, 'petstore_rate_limited_total{policy="client-address"}')).toBe(1)
        expect(
          value(before, 'petstore_http_request_duration_seconds_count{route="/v1/pets",method="GET"}')
        ).toBe(4)
        expect(value(before, "petstore_worker_queue_depth")).toBe(0)

        // A domain added to a paid, deployed project is checked by the worker at once: one job due.
        expect(
          (yield* server.request("/v1/projects", jsonPost({ id: "handbook", plan: "pro" }))).status
        ).toBe(201)
        expect(
          (yield* server.request("/v1/projects/handbook/deploys", jsonPost({ status: "succeeded" }))).status
        ).toBe(201)
        const added = yield* server.request(
          "/v1/projects/handbook/domains",
          jsonPost({ hostname: "docs.example.com" })
        )
        expect(added.status).toBe(201)
        const after = yield* scrape
        expect(value(after, "petstore_worker_queue_depth")).toBe(1)
      })
    )

    it.effect(
      "GET /metrics on the public port is 404 not_found, with or without a key, and undocumented",
      () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          for (const key of [server.key, null]) {
            for (const path of ["/metrics", "/metrics/"]) {
              const response = yield* server.request(path, { key })
              expect(response.status).toBe(404)
              expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8")
              expect(yield* json(response)).toEqual({
                code: "not_found",
                message: expect.any(String),
                status: 404
              })
            }
          }
          const before = yield* server.metrics
          expect(before).not.toContain('route="/metrics"')
          const document = (yield* json(yield* server.request("/v1/openapi.json", { key: null }))) as {
            readonly paths: Record<string, unknown>
          }
          expect(Object.keys(document.paths).filter((path) => path.includes("metrics"))).toEqual([])
        })
    )
  }
)
