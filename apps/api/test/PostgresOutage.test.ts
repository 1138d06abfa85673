/**
 * PostgreSQL going away under load, on a cluster the test starts itself (never the shared server):
 * concurrent creates, the cluster stopped, then started again. While it is down every answer is a
 * 503 `unavailable` with `Retry-After`, within the request deadline, and `/readyz` says so; once it is
 * back the same process answers 2xx again, no restart. Clients retry with their Idempotency-Key: every
 * animal acknowledged with a 201 is stored, exactly once. A key whose request was cut off mid-way by
 * the outage is given back as soon as the database answers again (not when its 60 s in-flight lease
 * ends): its retries may be told 409 `conflict` only for the few seconds that takes.
 */
import { randomUUID } from "node:crypto"
import { setTimeout as sleep } from "node:timers/promises"
import { afterEach, describe, expect, it } from "vitest"
import {
  cleanUp,
  freePort,
  HttpFailure,
  listAll,
  type Pet,
  randomKey,
  send,
  startServer,
  temporaryDirectory
} from "./support/ApiProcess.js"
import { startThrowawayPostgres } from "./support/ThrowawayPostgres.js"

afterEach(cleanUp, 60_000)

interface Answer {
  readonly status: number
  /** When the request was sent (epoch ms). */
  readonly sentAt: number
  readonly ms: number
  readonly duringOutage: boolean
  readonly retryAfter: string | undefined
  readonly code: unknown
}

describe("PostgreSQL outage under load", () => {
  it("503 within the deadline while it is down, 2xx again after, every acknowledged animal kept once", async () => {
    const cluster = await startThrowawayPostgres(await freePort())
    try {
      const key = randomKey()
      const requestTimeoutMs = 3_000
      const server = await startServer({
        DATABASE_URL: cluster.url,
        PETSTORE_BOOTSTRAP_KEY: key,
        PETSTORE_DATA_DIR: await temporaryDirectory(),
        PETSTORE_SECRET_KEY: "outage",
        PETSTORE_REQUEST_TIMEOUT: `${requestTimeoutMs} millis`
      })
      await server.listening()

      let down = false
      const answers: Array<Answer> = []
      const failures: Array<string> = []
      const acknowledged = new Map<string, Pet>()
      const workers = 6
      const perWorker = 30
      const giveUpAt = Date.now() + 100_000

      const create = async (name: string) => {
        const idempotencyKey = randomUUID()
        let lastStatus = 0
        while (Date.now() < giveUpAt) {
          const started = Date.now()
          const duringOutage = down
          try {
            const response = await send(server.baseUrl, "/v1/pets", {
              method: "POST",
              key,
              body: { name, categoryId: 7 },
              headers: { "idempotency-key": idempotencyKey },
              timeoutMs: 15_000
            })
            const body = response.json() as { readonly code?: unknown }
            lastStatus = response.status
            answers.push({
              status: response.status,
              sentAt: started,
              ms: Date.now() - started,
              duringOutage: duringOutage && down,
              retryAfter: response.headers["retry-after"] as string | undefined,
              code: body.code
            })
            if (response.status === 201) {
              acknowledged.set(name, response.json() as Pet)
              return
            }
          } catch (error) {
            failures.push(error instanceof HttpFailure ? `${error.stage} ${error.message}` : String(error))
          }
          // "still in progress; retry later": later, not at once.
          await sleep(lastStatus === 409 ? 1_000 : 50)
        }
        failures.push(`${name}: never acknowledged`)
      }
      // Each creator goes on until the database is back (a fast machine may create a worker's share
      // before the outage starts), then makes up its share.
      let outageOver = false
      const created: Array<number> = []
      const creators = Array.from({ length: workers }, async (_, worker) => {
        let i = 0
        for (; !outageOver || i < perWorker; i++) await create(`outage ${worker}-${i}`)
        created[worker] = i
      })

      await sleep(300)
      down = true
      await cluster.stop()
      await sleep(300)
      const readyWhileDown = await send(server.baseUrl, "/readyz")
      const listWhileDown = await send(server.baseUrl, "/v1/pets", { key })
      await sleep(1_200)
      await cluster.start()
      const backAt = Date.now()
      down = false
      outageOver = true
      await Promise.all(creators)

      expect(failures).toEqual([])
      expect(readyWhileDown.status).toBe(503)
      expect(listWhileDown.status).toBe(503)
      expect(listWhileDown.json()).toEqual({
        code: "unavailable",
        message: "the service is temporarily unavailable",
        status: 503
      })
      // The outage was felt, and every refusal was a prompt, well-formed 503.
      const refused = answers.filter((answer) => answer.status !== 201)
      expect(refused.filter((answer) => answer.duringOutage).length).toBeGreaterThan(0)
      const unavailable = refused.filter((answer) => answer.status === 503)
      expect(unavailable.filter((answer) => answer.code !== "unavailable")).toEqual([])
      expect(unavailable.filter((answer) => answer.retryAfter === undefined)).toEqual([])
      expect(
        refused.filter(
          (answer) => answer.status !== 503 && !(answer.status === 409 && answer.code === "conflict")
        )
      ).toEqual([])
      expect(answers.filter((answer) => answer.ms > requestTimeoutMs + 1_000)).toEqual([])
      // Reservations cut off by the outage were given back once the database answered again: no
      // retry was still told "in flight" long after (the lease alone would have said so for 60 s).
      expect(
        answers.filter((answer) => answer.status === 409 && answer.sentAt > backAt + 8_000),
        "409 long after the database came back"
      ).toEqual([])

      // Back without a restart.
      expect((await send(server.baseUrl, "/readyz")).status).toBe(200)
      expect(acknowledged.size).toBe(created.reduce((sum, count) => sum + count, 0))
      expect(acknowledged.size).toBeGreaterThanOrEqual(workers * perWorker)
      const stored = (await listAll(server.baseUrl, key)).filter((pet) => pet.name.startsWith("outage "))
      const names = stored.map((pet) => pet.name)
      expect(new Set(names).size, "no animal stored twice").toBe(names.length)
      const byName = new Map(stored.map((pet) => [pet.name, pet]))
      for (const [name, pet] of acknowledged) expect(byName.get(name), name).toEqual(pet)
      expect(stored.length).toBe(acknowledged.size)
      expect(await server.terminate()).toEqual({ code: 0, signal: null })
    } finally {
      await cluster.remove()
    }
  }, 180_000)
})
