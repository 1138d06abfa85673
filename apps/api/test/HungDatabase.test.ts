/**
 * A PostgreSQL that hangs instead of going away, on a cluster the test starts and pauses itself
 * (SIGSTOP on every process: connections stay open, nothing answers). Readiness still answers within
 * its 2 s whatever storage does, and the same process is ready again once the database runs. Creates
 * cut off by the deadline while it hangs, some of them mid-way through reserving their
 * Idempotency-Key, give their keys back within seconds of its return, not after the 60 s lease.
 */
import { afterEach, describe, expect, it } from "vitest"
import { cleanUp, freePort, randomKey, send, startServer, temporaryDirectory } from "./support/ApiProcess.js"
import { startThrowawayPostgres } from "./support/ThrowawayPostgres.js"

afterEach(cleanUp, 60_000)

/** A server with a key of its own on `clusterUrl`, listening. */
const startOn = async (clusterUrl: string, env: Record<string, string> = {}) => {
  const key = randomKey()
  const server = await startServer({
    DATABASE_URL: clusterUrl,
    PETSTORE_BOOTSTRAP_KEY: key,
    PETSTORE_DATA_DIR: await temporaryDirectory(),
    PETSTORE_SECRET_KEY: "hung",
    ...env
  })
  await server.listening()
  return { key, server }
}

describe("a hung PostgreSQL", () => {
  it("/readyz answers 503 within 2 s while the database hangs, and 200 once it runs again", async () => {
    const cluster = await startThrowawayPostgres(await freePort())
    try {
      const { key, server } = await startOn(cluster.url)
      expect((await send(server.baseUrl, "/readyz")).status).toBe(200)

      await cluster.pause()
      try {
        // Requests waiting on the hung database hold the pool's connections meanwhile.
        const waiting = Array.from({ length: 20 }, () =>
          send(server.baseUrl, "/v1/pets", { key, timeoutMs: 30_000 }).catch(() => undefined)
        )
        await new Promise((resolve) => setTimeout(resolve, 300))
        for (let probe = 0; probe < 3; probe++) {
          const startedAt = Date.now()
          const ready = await send(server.baseUrl, "/readyz", { timeoutMs: 10_000 })
          const elapsed = Date.now() - startedAt
          expect(ready.status).toBe(503)
          expect(ready.json()).toEqual({
            code: "unavailable",
            message: "storage is not reachable",
            status: 503
          })
          expect(elapsed, `probe ${probe} took ${elapsed} ms`).toBeLessThan(2_500)
        }
        await Promise.all(waiting)
      } finally {
        await cluster.resume()
      }

      let readyAgain = 0
      for (let attempt = 0; attempt < 100 && readyAgain !== 200; attempt++) {
        readyAgain = (await send(server.baseUrl, "/readyz", { timeoutMs: 10_000 })).status
        if (readyAgain !== 200) await new Promise((resolve) => setTimeout(resolve, 100))
      }
      expect(readyAgain).toBe(200)
      expect((await send(server.baseUrl, "/v1/pets", { key })).status).toBe(200)
      expect(await server.terminate()).toEqual({ code: 0, signal: null })
    } finally {
      await cluster.remove()
    }
  }, 120_000)

  it("creates cut off by the deadline while it hangs: their keys are free again within seconds of its return", async () => {
    const cluster = await startThrowawayPostgres(await freePort())
    try {
      const { key, server } = await startOn(cluster.url, { PETSTORE_REQUEST_TIMEOUT: "2 seconds" })
      const run = crypto.randomUUID().slice(0, 8)
      const create = (index: number) =>
        send(server.baseUrl, "/v1/pets", {
          method: "POST",
          key,
          body: { name: `hung-${run}-${index}`, categoryId: 1 },
          headers: { "idempotency-key": `hung-${run}-${index}` },
          timeoutMs: 30_000
        })
      expect((await create(0)).status).toBe(201)

      // Creates keep running while the database hangs for 4 s: some are cut off mid-way.
      let next = 1
      const firstAnswers = new Map<number, number>()
      const stopAt = Date.now() + 6_000
      const workers = Array.from({ length: 24 }, async () => {
        while (Date.now() < stopAt) {
          const index = next++
          firstAnswers.set(index, (await create(index)).status)
        }
      })
      await new Promise((resolve) => setTimeout(resolve, 500))
      await cluster.pause()
      await new Promise((resolve) => setTimeout(resolve, 4_000))
      await cluster.resume()
      await Promise.all(workers)
      const cut = [...firstAnswers].filter(([, status]) => status !== 201).map(([index]) => index)
      expect(cut.length).toBeGreaterThan(0)
      for (const [, status] of firstAnswers) expect([201, 503]).toContain(status)

      // Retried with the same keys: each creates (or replays) its animal within seconds, not a minute.
      const resumedAt = Date.now()
      const settled = new Map<number, number>()
      while (settled.size < cut.length && Date.now() - resumedAt < 30_000) {
        for (const index of cut) {
          if (settled.has(index)) continue
          const answer = await create(index)
          if (answer.status === 201) settled.set(index, Date.now() - resumedAt)
          else expect([409, 503]).toContain(answer.status)
        }
        if (settled.size < cut.length) await new Promise((resolve) => setTimeout(resolve, 250))
      }
      expect(settled.size, `settled: ${JSON.stringify([...settled])} of ${cut.length}`).toBe(cut.length)
      expect(Math.max(...settled.values())).toBeLessThan(10_000)
      expect(await server.terminate()).toEqual({ code: 0, signal: null })
    } finally {
      await cluster.remove()
    }
  }, 120_000)
})
