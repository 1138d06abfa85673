/**
 * Rate limits through a real listening server: the IETF draft-11 headers on every limited response,
 * 429 `rate_limited` with a `Retry-After` once a bucket is empty, one bucket per API key, one per client
 * address for requests without a valid key, nothing done by a refused request, and a limiter whose
 * store fails letting requests through (reported by `/readyz`).
 */
import { expect, layer } from "@effect/vitest"
import { MemoryStore } from "@petstore/store-memory"
import { Duration, Effect, Layer } from "effect"
import * as RateLimiter from "effect/persistence/RateLimiter"
import { json, jsonPost, TestServer, TestServerLive } from "./support/TestServer.js"

const limits = (perKey: number, perAddress: number) => ({
  perKey: { name: "api-key", limit: perKey, window: Duration.seconds(60) },
  perAddress: { name: "client-address", limit: perAddress, window: Duration.seconds(60) }
})

const expectRateLimited = (response: Response, policy: string) =>
  Effect.gen(function* () {
    expect(response.status).toBe(429)
    // The bucket refills one token every 60 s / 3 = 20 s: the next request may come in 20 s.
    expect(response.headers.get("retry-after")).toBe("20")
    expect(response.headers.get("ratelimit")).toBe(`"${policy}";r=0;t=20`)
    expect(response.headers.get("ratelimit-policy")).toBe(`"${policy}";q=3;w=60`)
    expect(response.headers.get("content-type")).toMatch(/^application\/json/)
    expect(yield* json(response)).toEqual({
      code: "rate_limited",
      message: "too many requests: at most 3 per 60 s; retry in 20 s",
      status: 429
    })
  })

layer(TestServerLive(MemoryStore.layer, { rateLimits: limits(3, 3) }), { excludeTestServices: true })(
  "rate limits per API key",
  (it) => {
    it.effect("count down on every response, refuse the fourth, and do nothing for it", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const first = yield* server.request("/v1/pets", jsonPost({ name: "Rex", categoryId: 1 }))
        expect(first.status).toBe(201)
        expect(first.headers.get("ratelimit-policy")).toBe(`"api-key";q=3;w=60`)
        expect(first.headers.get("ratelimit")).toBe(`"api-key";r=2;t=20`)
        const second = yield* server.request("/v1/pets?limit=5")
        expect(second.status).toBe(200)
        expect(second.headers.get("ratelimit")).toBe(`"api-key";r=1;t=40`)
        // Errors count too: a 400 took a token like any answer.
        const third = yield* server.request("/v1/pets?limit=0")
        expect(third.status).toBe(400)
        expect(third.headers.get("ratelimit")).toBe(`"api-key";r=0;t=60`)

        const refused = yield* server.request("/v1/pets", jsonPost({ name: "Tom", categoryId: 1 }))
        yield* expectRateLimited(refused, "api-key")
        // The other account's key has a bucket of its own: it sees Rex alone, no Tom.
        const other = yield* server.request("/v1/pets", { key: server.otherKey })
        expect(other.status).toBe(200)
        expect(other.headers.get("ratelimit")).toBe(`"api-key";r=2;t=20`)
        const all = (yield* json(
          yield* server.request("/v1/pets", { key: server.otherKey })
        )) as ReadonlyArray<{
          readonly name: string
        }>
        expect(all.map((pet) => pet.name)).toEqual(["Rex"])
      })
    )

    it.effect("leave public routes alone", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        for (const path of ["/healthz", "/readyz", "/v1/openapi.json"]) {
          const response = yield* server.request(path, { key: null })
          expect(response.status, path).toBe(200)
          expect(response.headers.get("ratelimit"), path).toBeNull()
        }
      })
    )
  }
)

layer(TestServerLive(MemoryStore.layer, { rateLimits: limits(1000, 3) }), { excludeTestServices: true })(
  "rate limits per client address",
  (it) => {
    it.effect("limit requests without a valid key, however the key varies", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const missing = yield* server.request("/v1/pets", { key: null })
        expect(missing.status).toBe(401)
        expect(missing.headers.get("ratelimit-policy")).toBe(`"client-address";q=3;w=60`)
        expect(missing.headers.get("ratelimit")).toBe(`"client-address";r=2;t=20`)
        expect((yield* server.request("/v1/pets", { key: "pk_live_guess1" })).status).toBe(401)
        expect((yield* server.request("/v1/pets", { key: "pk_live_guess2" })).status).toBe(401)
        const refused = yield* server.request("/v1/pets", { key: "pk_live_guess3" })
        yield* expectRateLimited(refused, "client-address")
        // A valid key is counted against the key, not the address: still served.
        const valid = yield* server.request("/v1/pets")
        expect(valid.status).toBe(200)
        expect(valid.headers.get("ratelimit-policy")).toBe(`"api-key";q=1000;w=60`)
      })
    )
  }
)

/** A store that cannot be reached, as Redis down looks to the limiter. */
const unreachable = Effect.fail(
  new RateLimiter.RateLimiterError({
    reason: new RateLimiter.RateLimitStoreError({ message: "connect ECONNREFUSED 127.0.0.1:6379" })
  })
)
const UnreachableStore = Layer.succeed(RateLimiter.RateLimiterStore, {
  fixedWindow: () => unreachable,
  tokenBucket: () => unreachable,
  adaptiveConsume: () => unreachable,
  adaptiveFeedback: () => unreachable
})

layer(TestServerLive(MemoryStore.layer, { rateLimits: limits(1, 1), rateLimiterStore: UnreachableStore }), {
  excludeTestServices: true
})("a rate-limit store that cannot be reached", (it) => {
  it.effect("lets requests through, without limit headers, and /readyz says so", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      for (let i = 0; i < 5; i++) {
        const response = yield* server.request("/v1/pets")
        expect(response.status).toBe(200)
        expect(response.headers.get("ratelimit")).toBeNull()
      }
      expect((yield* server.request("/v1/pets", { key: null })).status).toBe(401)
      const ready = yield* server.request("/readyz", { key: null })
      expect(ready.status).toBe(200)
      expect(yield* json(ready)).toEqual({
        status: "ok",
        checks: { storage: "ok", rateLimits: "unreachable: requests are not rate limited until it answers" }
      })
    })
  )
})
