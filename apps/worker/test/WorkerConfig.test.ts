/**
 * The built worker reads the adapters' settings the API reads, and a bad one stops it at start, naming
 * the variable, before it connects to PostgreSQL (the database named here does not exist).
 */
import { afterEach, describe, expect, it } from "vitest"
import { cleanUp, startWorker } from "./support/WorkerProcess.js"

afterEach(cleanUp, 60_000)

const unreachableDatabase = "postgres://petstore@127.0.0.1:1/petstore"

describe("a bad configuration of the worker", () => {
  it.each([
    ["PETSTORE_DNS_SERVERS", "localhost", "is not an IP address"],
    ["PETSTORE_DNS_TRIES", "11", "must be an integer from 1 to 10"],
    ["PETSTORE_ACME_DIRECTORY_URL", "not a url", "PETSTORE_ACME_DIRECTORY_URL"],
    ["PETSTORE_WEBHOOK_ALLOW_PRIVATE", "yes", "must be true or false"],
    ["PETSTORE_WEBHOOK_RETRY_BASE", "soon", "PETSTORE_WEBHOOK_RETRY_BASE"],
    ["PETSTORE_WEBHOOK_RETRY_BASE", "50 millis", "must be from 100 millis to 1 hour"]
  ])(
    "%s=%s stops the worker at start, saying why",
    async (variable, value, reason) => {
      const worker = startWorker({ DATABASE_URL: unreachableDatabase, [variable]: value })
      const exit = await worker.exited
      expect(exit.code, worker.output()).toBe(1)
      expect(worker.stdout()).toContain(variable)
      expect(worker.stdout()).toContain(reason)
      expect(worker.stdout()).not.toContain("checking domains")
      expect(worker.stdout()).not.toContain("127.0.0.1:1")
    },
    60_000
  )
})
