/**
 * Rate limits on Redis, through the built server (`REDIS_URL` chooses the Redis store): two server
 * processes on one Redis draw from one bucket per key, and a server whose Redis cannot be reached
 * keeps answering, unlimited, saying so in `/readyz`. How the store's client rides out an outage
 * (fails fast, reconnects by itself, logs once) is the adapter's test (packages/store-redis). Uses the
 * Redis at `PETSTORE_TEST_REDIS_URL` (`.ci/run` starts one), else one of its own (`@petstore/testing`'s
 * TestRedis: a container, or the machine's `redis-server`): fails, never skips, when there is none.
 */
import { TestRedis } from "@petstore/testing"
import { Effect, Exit, Scope } from "effect"
import { Redis } from "ioredis"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import {
  cleanUp,
  freePort,
  freshDatabase,
  randomKey,
  send,
  startServer,
  temporaryDirectory
} from "./support/ApiProcess.js"

const testTimeout = 120_000
const redisScope = Scope.makeUnsafe()
let redisUrl: URL
/** A database of its own (1–15, emptied first), so no earlier run's buckets count. */
const database = 1 + Math.floor(Math.random() * 15)
let redis: Redis

beforeAll(async () => {
  redisUrl = new URL((await Effect.runPromise(Scope.provide(redisScope)(TestRedis.make))).url)
  redis = new Redis({
    host: redisUrl.hostname,
    port: Number(redisUrl.port || 6379),
    db: database,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    retryStrategy: () => null
  })
  redis.on("error", () => undefined)
  try {
    await redis.connect()
    await redis.flushdb()
  } catch (error) {
    throw new Error(
      `Redis for the rate-limit tests (${redisUrl.host}) is unreachable: ${String(error)}. ` +
        "Start it (`.ci/run` does) or set PETSTORE_TEST_REDIS_URL."
    )
  }
}, 30_000)
afterEach(cleanUp, 60_000)
afterAll(async () => {
  await redis?.quit()
  await Effect.runPromise(Scope.close(redisScope, Exit.void))
})

describe("rate limits on Redis", () => {
  it(
    "two server processes share one bucket per key",
    async () => {
      const { url } = await freshDatabase()
      const key = randomKey()
      const env = {
        DATABASE_URL: url,
        PETSTORE_BOOTSTRAP_KEY: key,
        PETSTORE_DATA_DIR: await temporaryDirectory(),
        PETSTORE_SECRET_KEY: "rate-limits",
        REDIS_URL: `redis://${redisUrl.host}/${database}`,
        PETSTORE_RATE_LIMIT_PER_KEY: "4",
        PETSTORE_RATE_LIMIT_WINDOW: "60 seconds"
      }
      const a = await startServer(env)
      await a.listening()
      const b = await startServer(env)
      await b.listening()

      const remaining: Array<string | undefined> = []
      for (const server of [a, b, a, b]) {
        const response = await send(server.baseUrl, "/v1/pets", { key })
        expect(response.status, response.text).toBe(200)
        expect(response.headers["ratelimit-policy"]).toBe(`"api-key";q=4;w=60`)
        remaining.push(String(response.headers.ratelimit))
      }
      expect(remaining).toEqual([
        `"api-key";r=3;t=15`,
        `"api-key";r=2;t=30`,
        `"api-key";r=1;t=45`,
        `"api-key";r=0;t=60`
      ])
      for (const server of [a, b]) {
        const refused = await send(server.baseUrl, "/v1/pets", { key })
        expect(refused.status).toBe(429)
        expect(refused.headers["retry-after"]).toBe("15")
        expect(refused.json()).toEqual({
          code: "rate_limited",
          message: "too many requests: at most 4 per 60 s; retry in 15 s",
          status: 429
        })
      }
      expect(await a.terminate()).toEqual({ code: 0, signal: null })
      expect(await b.terminate()).toEqual({ code: 0, signal: null })
    },
    testTimeout
  )

  it(
    "a server whose Redis is unreachable keeps answering, unlimited, and /readyz says so",
    async () => {
      const key = randomKey()
      const server = await startServer({
        PETSTORE_DATA_DIR: await temporaryDirectory(),
        PETSTORE_BOOTSTRAP_KEY: key,
        REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
        PETSTORE_RATE_LIMIT_PER_KEY: "1"
      })
      await server.listening()
      for (let i = 0; i < 5; i++) {
        const started = Date.now()
        const response = await send(server.baseUrl, "/v1/pets", { key })
        expect(response.status, response.text).toBe(200)
        expect(response.headers.ratelimit).toBeUndefined()
        expect(Date.now() - started).toBeLessThan(2_000)
      }
      const ready = await send(server.baseUrl, "/readyz")
      expect(ready.status).toBe(200)
      expect(ready.json()).toEqual({
        status: "ok",
        checks: { storage: "ok", rateLimits: "unreachable: requests are not rate limited until it answers" }
      })
      expect(server.stdout()).toMatch(/rate limit store unreachable/)
      expect(await server.terminate()).toEqual({ code: 0, signal: null })
    },
    testTimeout
  )
})
