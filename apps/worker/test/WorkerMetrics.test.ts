/**
 * The built worker's metrics listener, as an operator configures it: `PETSTORE_METRICS_PORT` on
 * 127.0.0.1 unless `PETSTORE_METRICS_HOST` says otherwise (another address of the machine, 127.0.0.2,
 * is refused), closed when the worker stops, and a port in use stops the worker at start with a
 * sentence naming it. Fails (never skips) when the test PostgreSQL is unreachable.
 */
import { createServer, type Server } from "node:net"
import { LoopbackServer } from "@petstore/testing"
import { Effect } from "effect"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { openTestStore, type TestStore } from "./support/TestStore.js"
import { cleanUp, onCleanUp, startWorker } from "./support/WorkerProcess.js"

const testTimeout = 60_000

let store: TestStore

beforeAll(async () => {
  store = await openTestStore()
}, 300_000)
afterEach(cleanUp, 60_000)
afterAll(async () => {
  await store?.close()
}, 60_000)

const freePort = () => Effect.runPromise(LoopbackServer.freePort)

/** A scrape's status and body, or the connection error's code (`ECONNREFUSED`). */
const scrape = (host: string, port: number) =>
  fetch(`http://${host}:${port}/metrics`).then(
    async (response) => ({ status: response.status, text: await response.text() }),
    (error: Error & { readonly cause?: { readonly code?: string } }) => error.cause?.code ?? error.message
  )

const startOn = (env: Record<string, string>) => startWorker({ DATABASE_URL: store.url, ...env })

describe("the worker's metrics listener", () => {
  it(
    "listens on 127.0.0.1 by default, and stops listening when the worker stops",
    async () => {
      const port = await freePort()
      const worker = startOn({ PETSTORE_METRICS_PORT: String(port) })
      await worker.started()
      expect(worker.stdout()).toContain(`worker metrics on http://127.0.0.1:${port}/metrics`)
      const answer = await scrape("127.0.0.1", port)
      expect(answer).toEqual({ status: 200, text: expect.stringContaining("petstore_worker_rounds_total 0") })
      expect(await scrape("127.0.0.2", port)).toBe("ECONNREFUSED")

      expect(await worker.stop(), worker.output()).toEqual({ code: 0, signal: null })
      expect(await scrape("127.0.0.1", port)).toBe("ECONNREFUSED")
    },
    testTimeout
  )

  it(
    "listens where PETSTORE_METRICS_HOST says",
    async () => {
      const port = await freePort()
      const worker = startOn({ PETSTORE_METRICS_PORT: String(port), PETSTORE_METRICS_HOST: "0.0.0.0" })
      await worker.started()
      expect(worker.stdout()).toContain(`worker metrics on http://0.0.0.0:${port}/metrics`)
      expect(await scrape("127.0.0.2", port)).toEqual({ status: 200, text: expect.any(String) })
      expect(await worker.stop(), worker.output()).toEqual({ code: 0, signal: null })
    },
    testTimeout
  )

  it(
    "a metrics port in use stops the worker at start, saying which",
    async () => {
      const taken: Server = createServer()
      const port = await new Promise<number>((resolve) =>
        taken.listen(0, "127.0.0.1", () => {
          const address = taken.address()
          resolve(typeof address === "object" && address !== null ? address.port : 0)
        })
      )
      onCleanUp(() => new Promise<void>((resolve) => taken.close(() => resolve())))
      const worker = startOn({ PETSTORE_METRICS_PORT: String(port) })
      const exit = await worker.exited
      expect(exit.code, worker.output()).toBe(1)
      expect(worker.stdout()).toContain(
        `the metrics listener cannot listen on 127.0.0.1:${port}: the port is already in use`
      )
      expect(worker.stdout()).not.toContain("checking domains")
    },
    testTimeout
  )
})
