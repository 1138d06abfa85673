/**
 * The built API process and key CLI, run as an operator runs them: `node dist/main.js` and
 * `node dist/cli.js`, configured by environment variables, stopped with SIGTERM. Tests that need
 * PostgreSQL fail (never skip) when the test server is unreachable.
 */
import { createHash } from "node:crypto"
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs"
import { connect, type Socket } from "node:net"
import { join } from "node:path"
import { EmbeddedPostgres, PgStore } from "@petstore/store-pg"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterEach, describe, expect, it } from "vitest"
import {
  cleanUp,
  freePort,
  freshDatabase,
  HttpFailure,
  listAll,
  logLines,
  type Pet,
  randomKey,
  runCli,
  type ServerProcess,
  send,
  startServer,
  temporaryDirectory
} from "./support/ApiProcess.js"

const testTimeout = 120_000

afterEach(cleanUp, 60_000)

/** Runs `query` on the database at `url`, on a connection of its own. */
const queryDatabase = <A extends object>(url: string, query: string) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return (yield* sql.unsafe(query)) as ReadonlyArray<A>
    }).pipe(Effect.provide(PgStore.clientLayer({ url, maxConnections: 1 })))
  )

const createPet = async (server: ServerProcess, key: string, body: object, headers = {}) => {
  const response = await send(server.baseUrl, "/v1/pets", { method: "POST", key, body, headers })
  expect(response.status, response.text).toBe(201)
  return response.json() as Pet
}

/**
 * What under `directory` the group or others may use (each path with its mode): files must be 0600
 * or stricter and directories 0700.
 */
const openToOthers = (directory: string): ReadonlyArray<string> =>
  readdirSync(directory, { recursive: true, encoding: "utf8" }).flatMap((entry) => {
    const info = statSync(join(directory, entry))
    const mode = info.mode & 0o777
    const open = info.isDirectory() ? mode !== 0o700 : (mode & 0o077) !== 0
    return open ? [`${entry} ${mode.toString(8)}`] : []
  })

/** An embedded-storage server on `dataDir`, started and listening. */
const startEmbedded = async (dataDir: string, key: string, env: Record<string, string> = {}) => {
  const server = await startServer({ PETSTORE_DATA_DIR: dataDir, PETSTORE_BOOTSTRAP_KEY: key, ...env })
  await server.listening()
  return server
}

const expectCleanStop = async (server: ServerProcess) => {
  const exit = await server.terminate()
  expect(exit, server.output()).toEqual({ code: 0, signal: null })
  expect(logLines(server.stdout()).map((line) => line.message)).toContain("petstore shutting down")
}

describe("the API process on its default embedded storage", () => {
  it(
    "keeps its data across a restart on the same data directory",
    async () => {
      const dataDir = join(await temporaryDirectory(), "data")
      const key = randomKey()
      const first = await startEmbedded(dataDir, key)
      expect(first.stdout()).toContain("(storage: embedded)")
      const pet = await createPet(first, key, { name: "Survivor 🐢", categoryId: 42, status: "pending" })
      await expectCleanStop(first)
      expect(existsSync(join(dataDir, EmbeddedPostgres.lockFileName))).toBe(false)

      const second = await startEmbedded(dataDir, key)
      const fetched = await send(second.baseUrl, `/v1/pets/${pet.id}`, { key })
      expect(fetched.status, fetched.text).toBe(200)
      expect(fetched.json()).toEqual(pet)
      expect(await listAll(second.baseUrl, key)).toEqual([pet])
      const next = await createPet(second, key, { name: "After restart", categoryId: 1 })
      expect(next.id).toBeGreaterThan(pet.id)
      await expectCleanStop(second)
      // Everything it keeps is its user's alone: the database's files, the secret, the CA's files.
      expect(openToOthers(dataDir)).toEqual([])
    },
    testTimeout
  )

  it(
    "keeps its compiled code in its data directory, once that directory is private to it",
    async () => {
      const dataDir = join(await temporaryDirectory(), "data")
      const cache = join(dataDir, "compile-cache")
      const key = randomKey()
      // The first start creates the directory (private) after the code is loaded: nothing cached yet.
      await expectCleanStop(await startEmbedded(dataDir, key))
      expect(existsSync(cache)).toBe(false)
      const second = await startEmbedded(dataDir, key)
      expect((await send(second.baseUrl, "/v1/pets", { key })).status).toBe(200)
      await expectCleanStop(second)
      expect(readdirSync(cache, { recursive: true }).length).toBeGreaterThan(0)
      // Cached code is run: a directory others may write to is never used for it.
      const shared = join(await temporaryDirectory(), "shared")
      mkdirSync(shared)
      chmodSync(shared, 0o777)
      await expectCleanStop(await startEmbedded(shared, key))
      expect(existsSync(join(shared, "compile-cache"))).toBe(false)
    },
    testTimeout
  )

  it(
    "the bootstrap key lives as long as its variable: changed, the old one is refused; removed, none is",
    async () => {
      const dataDir = join(await temporaryDirectory(), "data")
      const [first, second] = [randomKey(), randomKey()]
      const withFirst = await startEmbedded(dataDir, first)
      expect((await send(withFirst.baseUrl, "/v1/pets", { key: first })).status).toBe(200)
      await expectCleanStop(withFirst)

      const withSecond = await startEmbedded(dataDir, second)
      expect((await send(withSecond.baseUrl, "/v1/pets", { key: second })).status).toBe(200)
      expect((await send(withSecond.baseUrl, "/v1/pets", { key: first })).status).toBe(401)
      expect(withSecond.stdout()).toMatch(
        /revoked the earlier bootstrap key: key_[0-9a-f]{16} \(account default\)/
      )
      await expectCleanStop(withSecond)

      const without = await startServer({ PETSTORE_DATA_DIR: dataDir })
      await without.listening()
      for (const key of [first, second]) {
        const refused = await send(without.baseUrl, "/v1/pets", { key })
        expect(refused.status).toBe(401)
        expect(refused.headers["www-authenticate"]).toBe('Bearer realm="petstore", error="invalid_token"')
      }
      await expectCleanStop(without)

      // Set again, a revoked key stays revoked (it may have leaked), and the log says so.
      const again = await startEmbedded(dataDir, second)
      expect((await send(again.baseUrl, "/v1/pets", { key: second })).status).toBe(401)
      expect(again.stdout()).toMatch(/PETSTORE_BOOTSTRAP_KEY names a key revoked earlier/)
      await expectCleanStop(again)
    },
    testTimeout
  )

  it(
    "opens its port only once a request can be answered",
    async () => {
      const dataDir = join(await temporaryDirectory(), "data")
      const key = randomKey()
      // The port is probed before the server says it listens, so it is chosen here.
      const server = await startServer({
        PETSTORE_DATA_DIR: dataDir,
        PETSTORE_BOOTSTRAP_KEY: key,
        PORT: String(await freePort())
      })
      // A fresh data directory: the embedded database is created first, which takes seconds.
      const socket = await firstAcceptedConnection(server, 60_000)
      const [health, pets] = await Promise.all([
        exchange(socket, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 2_000),
        send(server.baseUrl, "/v1/pets", { key, timeoutMs: 2_000 })
      ])
      expect(health).toMatch(/^HTTP\/1\.1 200 /)
      expect(health).toContain('{"status":"ok"}')
      expect(pets.status, pets.text).toBe(200)
      expect(pets.json()).toEqual([])
    },
    testTimeout
  )

  it(
    "shuts down gracefully under load: acknowledged creates are kept, none is cut off",
    async () => {
      const dataDir = join(await temporaryDirectory(), "data")
      const key = randomKey()
      const server = await startEmbedded(dataDir, key)
      const run = globalThis.crypto.randomUUID().slice(0, 8)
      let sigtermSentAt: number | undefined

      type Outcome =
        | {
            readonly name: string
            readonly status: number
            readonly pet: Pet
            readonly afterSigterm: boolean
          }
        | { readonly name: string; readonly failure: HttpFailure }

      const create = async (name: string): Promise<Outcome> => {
        try {
          const response = await send(server.baseUrl, "/v1/pets", {
            method: "POST",
            key,
            body: { name, categoryId: 7 },
            headers: { "x-request-id": name },
            timeoutMs: 30_000
          })
          const afterSigterm = sigtermSentAt !== undefined
          if (sigtermSentAt === undefined) {
            sigtermSentAt = Date.now()
            server.child.kill("SIGTERM")
          }
          return { name, status: response.status, pet: response.json() as Pet, afterSigterm }
        } catch (error) {
          if (error instanceof HttpFailure) return { name, failure: error }
          throw error
        }
      }

      const firstWave = Array.from({ length: 100 }, (_, i) => create(`load-${run}-${i}`))
      // A second wave, sent once the signal has been: refused, or served in full if still accepted.
      const secondWave = (async () => {
        while (sigtermSentAt === undefined) await new Promise((resolve) => setTimeout(resolve, 1))
        return Promise.all(Array.from({ length: 20 }, (_, i) => create(`late-${run}-${i}`)))
      })()
      const outcomes = [...(await Promise.all(firstWave)), ...(await secondWave)]
      const exit = await server.exited
      expect(exit, server.output()).toEqual({ code: 0, signal: null })
      expect(server.stdout()).toContain("petstore shutting down")

      const answered = outcomes.flatMap((outcome) => ("status" in outcome ? [outcome] : []))
      const failed = outcomes.flatMap((outcome) => ("failure" in outcome ? [outcome] : []))
      // Everything that got an answer was created; what did not was refused before any response.
      expect(answered.filter((outcome) => outcome.status !== 201)).toEqual([])
      expect(
        failed.filter(
          ({ failure }) =>
            failure.stage !== "before-response" ||
            (failure.code !== "ECONNREFUSED" && failure.code !== "ECONNRESET")
        )
      ).toEqual([])
      // The signal really arrived while creates were in flight.
      expect(answered.filter((outcome) => outcome.afterSigterm).length).toBeGreaterThan(0)

      const restarted = await startEmbedded(dataDir, key)
      const stored = await listAll(restarted.baseUrl, key)
      const storedNames = stored.map((pet) => pet.name)
      expect(new Set(storedNames).size).toBe(storedNames.length)
      expect(new Set(stored.map((pet) => pet.id)).size).toBe(stored.length)
      // Every acknowledged animal is there, as acknowledged; nothing else was created.
      expect([...stored].sort((a, b) => a.id - b.id)).toEqual(
        answered.map((outcome) => outcome.pet).sort((a, b) => a.id - b.id)
      )
      // A request the client saw fail never reached a handler (else its answer was lost).
      const handled = new Set(
        logLines(server.stdout()).flatMap((line) => {
          const annotations = line.annotations as Record<string, unknown> | undefined
          return line.message === "request" && typeof annotations?.requestId === "string"
            ? [annotations.requestId]
            : []
        })
      )
      expect(failed.filter(({ name }) => handled.has(name)).map(({ name }) => name)).toEqual([])
      await expectCleanStop(restarted)
    },
    testTimeout
  )

  it(
    "logs one JSON object per line, with a line per request carrying the request id",
    async () => {
      const dataDir = join(await temporaryDirectory(), "data")
      const key = randomKey()
      const server = await startEmbedded(dataDir, key)
      const created = await createPet(
        server,
        key,
        { name: "Logged", categoryId: 1 },
        { "x-request-id": "log-create-1" }
      )
      const expected = [
        { requestId: "log-create-1", method: "POST", path: "/v1/pets", status: 201 },
        { requestId: "log-list-1", method: "GET", path: "/v1/pets", status: 200 },
        { requestId: "log-get-1", method: "GET", path: `/v1/pets/${created.id}`, status: 200 },
        { requestId: "log-missing-1", method: "GET", path: "/v1/pets/9007199254740991", status: 404 },
        { requestId: "log-unauthorized-1", method: "GET", path: "/v1/pets", status: 401 }
      ]
      expect(
        (await send(server.baseUrl, "/v1/pets?limit=5", { key, headers: { "x-request-id": "log-list-1" } }))
          .status
      ).toBe(200)
      expect(
        (
          await send(server.baseUrl, `/v1/pets/${created.id}`, {
            key,
            headers: { "x-request-id": "log-get-1" }
          })
        ).status
      ).toBe(200)
      expect(
        (
          await send(server.baseUrl, "/v1/pets/9007199254740991", {
            key,
            headers: { "x-request-id": "log-missing-1" }
          })
        ).status
      ).toBe(404)
      expect(
        (await send(server.baseUrl, "/v1/pets", { headers: { "x-request-id": "log-unauthorized-1" } })).status
      ).toBe(401)
      const health = await send(server.baseUrl, "/healthz")
      const generatedId = health.headers["x-request-id"]
      expect(typeof generatedId).toBe("string")
      await expectCleanStop(server)

      const lines = logLines(server.stdout())
      for (const line of lines) {
        expect(typeof line.message, JSON.stringify(line)).toBe("string")
        expect((line.message as string).length, JSON.stringify(line)).toBeGreaterThan(0)
      }
      const requests = lines
        .filter((line) => line.message === "request")
        .map((line) => ({ ...(line.annotations as Record<string, unknown>) }))
      expect(requests.length).toBe(expected.length + 1)
      for (const request of requests) {
        expect(request).toMatchObject({
          requestId: expect.any(String),
          method: expect.any(String),
          path: expect.any(String),
          status: expect.any(Number),
          durationMs: expect.any(Number)
        })
        expect(request.durationMs as number).toBeGreaterThanOrEqual(0)
      }
      for (const { requestId, method, path, status } of expected) {
        const line = requests.find((request) => request.requestId === requestId)
        expect(line, requestId).toBeDefined()
        expect({
          method: line?.method,
          path: String(line?.path).split("?")[0],
          status: line?.status
        }).toEqual({
          method,
          path,
          status
        })
      }
      expect(requests.find((request) => request.requestId === generatedId)).toMatchObject({
        method: "GET",
        path: "/healthz",
        status: 200
      })
      // The key reaches neither the logs nor the error output.
      expect(server.stdout()).not.toContain(key)
      expect(server.stderr()).not.toContain(key)
    },
    testTimeout
  )
})

describe("the API process on PostgreSQL (DATABASE_URL)", () => {
  it(
    "migrates the database at start and serves from it",
    async () => {
      const database = await freshDatabase()
      const unusedDataDir = join(await temporaryDirectory(), "not-used")
      const key = randomKey()
      // With the secret configured, a server on PostgreSQL writes nothing locally.
      const env = {
        DATABASE_URL: database.url,
        PETSTORE_DATA_DIR: unusedDataDir,
        PETSTORE_SECRET_KEY: "process-test-secret-0123456789abcdef",
        PETSTORE_BOOTSTRAP_KEY: key
      }
      const server = await startServer(env)
      await server.listening()
      expect(server.stdout()).toContain("(storage: postgres)")
      const migrations = await queryDatabase<{ name: string }>(
        database.url,
        "select name from petstore_migrations order by migration_id"
      )
      expect(migrations.map((row) => row.name)).toEqual([
        "pets",
        "api_keys",
        "idempotency_keys",
        "custom_domains",
        "certificates",
        "idempotency_keys_created_at",
        "api_key_changes",
        "edge_changes",
        "ownership",
        "domain_events",
        "webhooks",
        "projects_by_account",
        "conditional_writes",
        "webhook_safety"
      ])
      const ready = await send(server.baseUrl, "/readyz")
      expect(ready.status, ready.text).toBe(200)
      const rex = await createPet(server, key, { name: "Rex", categoryId: 3 })
      const tom = await createPet(server, key, { name: "Tom", categoryId: 4, status: "sold" })
      expect(await listAll(server.baseUrl, key)).toEqual([rex, tom])
      const rows = await queryDatabase<{ name: string }>(database.url, "select name from pets order by id")
      expect(rows.map((row) => row.name)).toEqual(["Rex", "Tom"])
      await expectCleanStop(server)

      // Keys sent more than 24 hours ago count no more: a server forgets them when it starts.
      await queryDatabase(
        database.url,
        `insert into idempotency_keys (account, key, fingerprint, pet_id, created_at) values
           ('default', 'expired', 'fp', ${rex.id}, now() - interval '25 hours'),
           ('default', 'remembered', 'fp', ${tom.id}, now() - interval '23 hours')`
      )

      // Restarting runs no migration twice and finds the data.
      const again = await startServer(env)
      await again.listening()
      expect(await listAll(again.baseUrl, key)).toEqual([rex, tom])
      await expect
        .poll(
          async () =>
            (
              await queryDatabase<{ key: string }>(
                database.url,
                "select key from idempotency_keys order by key"
              )
            ).map((row) => row.key),
          { timeout: 10_000 }
        )
        .toEqual(["remembered"])
      await expectCleanStop(again)
      expect(existsSync(unusedDataDir)).toBe(false)
    },
    testTimeout
  )
})

describe("the key CLI", () => {
  it(
    "creates, lists and revokes keys that the running server honours at once",
    async () => {
      const database = await freshDatabase()
      const env = { DATABASE_URL: database.url }

      const created = await runCli(["keys", "create", "--account", "acme"], env)
      expect(created.code, created.stderr).toBe(0)
      const keyLines = created.stdout.split("\n").filter((line) => /^pk_live_[A-Za-z0-9_-]{43}$/.test(line))
      expect(keyLines, created.stdout).toHaveLength(1)
      const token = keyLines[0] as string
      const id = /key_[0-9a-f]{16}/.exec(created.stderr + created.stdout)?.[0]
      expect(id, created.stderr).toBeDefined()

      const stored = await queryDatabase<{ id: string; account: string; hash: string }>(
        database.url,
        "select id, account, hash from api_keys"
      )
      expect(stored).toEqual([
        { id, account: "acme", hash: createHash("sha256").update(token).digest("hex") }
      ])
      expect(JSON.stringify(await queryDatabase(database.url, "select * from api_keys"))).not.toContain(token)

      const listed = await runCli(["keys", "list"], env)
      expect(listed.code, listed.stderr).toBe(0)
      const line = listed.stdout.split("\n").find((candidate) => candidate.includes(id as string))
      expect(line, listed.stdout).toBeDefined()
      expect(line?.split("\t")).toEqual([id, "acme", expect.stringMatching(/^\d{4}-\d\d-\d\dT/), "active"])
      expect(listed.stdout + listed.stderr).not.toContain(token)

      const server = await startServer({
        ...env,
        PETSTORE_DATA_DIR: join(await temporaryDirectory(), "unused")
      })
      await server.listening()
      const accepted = await send(server.baseUrl, "/v1/pets", { key: token })
      expect(accepted.status, accepted.text).toBe(200)

      const revoked = await runCli(["keys", "revoke", id as string], env)
      expect(revoked.code, revoked.stderr + revoked.stdout).toBe(0)
      const refused = await send(server.baseUrl, "/v1/pets", { key: token })
      expect(refused.status).toBe(401)
      expect(refused.headers["www-authenticate"]).toBe('Bearer realm="petstore", error="invalid_token"')
      const listedAfter = await runCli(["keys", "list"], env)
      expect(listedAfter.stdout).toMatch(new RegExp(`^${id}\\tacme\\t\\S+\\trevoked \\d{4}-`, "m"))

      const revokedAgain = await runCli(["keys", "revoke", id as string], env)
      expect(revokedAgain.code).not.toBe(0)
      expect(revokedAgain.code).not.toBeNull()

      const reserved = await runCli(["keys", "create", "--account", "default"], env)
      expect(reserved.code).not.toBe(0)
      expect(reserved.code).not.toBeNull()
      expect(reserved.stderr).toMatch(/holds only PETSTORE_BOOTSTRAP_KEY/)
      expect(reserved.stdout).not.toMatch(/pk_live_/)

      const badAccount = await runCli(["keys", "create", "--account", "Bad Name"], env)
      expect(badAccount.code).not.toBe(0)
      expect(badAccount.code).not.toBeNull()
      expect(badAccount.stderr + badAccount.stdout).toMatch(/lower-case/)
      expect(badAccount.stdout).not.toMatch(/pk_live_/)
      expect(await queryDatabase(database.url, "select id from api_keys")).toEqual([{ id }])

      // The revoked key stays refused; a new key works without a restart.
      const second = await runCli(["keys", "create", "--account", "acme"], env)
      const secondToken = second.stdout.split("\n").find((candidate) => candidate.startsWith("pk_live_"))
      expect(secondToken).toBeDefined()
      expect((await send(server.baseUrl, "/v1/pets", { key: secondToken as string })).status).toBe(200)
      expect((await send(server.baseUrl, "/v1/pets", { key: token })).status).toBe(401)
      await expectCleanStop(server)
    },
    testTimeout
  )
})

describe("the key CLI beside a running embedded server", () => {
  it(
    "reaches the server's keys through its key administration, and the database itself once it stops",
    async () => {
      const dataDir = join(await temporaryDirectory(), "data")
      const server = await startEmbedded(dataDir, randomKey())
      const env = { PETSTORE_DATA_DIR: dataDir }

      const created = await runCli(["keys", "create", "--account", "acme"], env)
      expect(created.code, created.stderr).toBe(0)
      const token = created.stdout.split("\n").find((line) => line.startsWith("pk_live_"))
      const id = /key_[0-9a-f]{16}/.exec(created.stderr)?.[0]
      expect(token, created.stdout).toBeDefined()
      expect(id, created.stderr).toBeDefined()
      expect((await send(server.baseUrl, "/v1/pets", { key: token as string })).status).toBe(200)

      const listed = await runCli(["keys", "list"], env)
      expect(listed.code, listed.stderr).toBe(0)
      expect(listed.stdout).toMatch(new RegExp(`^${id}\\tacme\\t\\S+\\tactive$`, "m"))

      const revoked = await runCli(["keys", "revoke", id as string], env)
      expect(revoked.code, revoked.stderr + revoked.stdout).toBe(0)
      expect((await send(server.baseUrl, "/v1/pets", { key: token as string })).status).toBe(401)
      const revokedAgain = await runCli(["keys", "revoke", id as string], env)
      expect(revokedAgain.code).not.toBe(0)
      expect(revokedAgain.stderr).toContain(`No active key ${id}.`)

      await expectCleanStop(server)
      const listedAfter = await runCli(["keys", "list"], env)
      expect(listedAfter.code, listedAfter.stderr).toBe(0)
      expect(listedAfter.stdout).toMatch(new RegExp(`^${id}\\tacme\\t\\S+\\trevoked \\d{4}-`, "m"))
    },
    testTimeout
  )
})

describe("a bad configuration", () => {
  const cases: ReadonlyArray<readonly [string, Record<string, string>, RegExp]> = [
    ["PORT=notaport", { PORT: "notaport" }, /PORT/],
    ["PORT=70000", { PORT: "70000" }, /PORT/],
    ["PETSTORE_STORAGE=sqlite", { PETSTORE_STORAGE: "sqlite" }, /PETSTORE_STORAGE/],
    ["PETSTORE_STORAGE=postgres without DATABASE_URL", { PETSTORE_STORAGE: "postgres" }, /DATABASE_URL/],
    ["PETSTORE_REQUEST_TIMEOUT=soon", { PETSTORE_REQUEST_TIMEOUT: "soon" }, /PETSTORE_REQUEST_TIMEOUT/],
    [
      "PETSTORE_REQUEST_TIMEOUT=2 minutes (past half the idempotency lease)",
      { PETSTORE_REQUEST_TIMEOUT: "2 minutes" },
      /PETSTORE_REQUEST_TIMEOUT.*at most 30s/
    ],
    [
      "PETSTORE_REQUEST_TIMEOUT=0 millis",
      { PETSTORE_REQUEST_TIMEOUT: "0 millis" },
      /PETSTORE_REQUEST_TIMEOUT/
    ],
    ["LOG_LEVEL=loud", { LOG_LEVEL: "loud" }, /LOG_LEVEL/],
    ["PETSTORE_DNS_SERVERS=localhost", { PETSTORE_DNS_SERVERS: "localhost" }, /PETSTORE_DNS_SERVERS/],
    [
      "PETSTORE_ACME_DIRECTORY_URL=not a url",
      { PETSTORE_ACME_DIRECTORY_URL: "not a url" },
      /PETSTORE_ACME_DIRECTORY_URL/
    ],
    [
      "PETSTORE_EDGE_UNKNOWN_NAME_LIMIT=0",
      { PETSTORE_EDGE_UNKNOWN_NAME_LIMIT: "0" },
      /PETSTORE_EDGE_UNKNOWN_NAME_LIMIT.*from 1 to 1000000/
    ],
    ["PETSTORE_EDGE_CACHE_TTL=soon", { PETSTORE_EDGE_CACHE_TTL: "soon" }, /PETSTORE_EDGE_CACHE_TTL/],
    [
      "PETSTORE_LIMIT_DOMAINS_PER_PROJECT=0",
      { PETSTORE_LIMIT_DOMAINS_PER_PROJECT: "0" },
      /PETSTORE_LIMIT_DOMAINS_PER_PROJECT.*from 1 to 1000000/
    ],
    [
      "PETSTORE_LIMIT_PROJECTS_PER_ACCOUNT=many",
      { PETSTORE_LIMIT_PROJECTS_PER_ACCOUNT: "many" },
      /PETSTORE_LIMIT_PROJECTS_PER_ACCOUNT/
    ],
    [
      "a bootstrap key of 23 characters",
      { PETSTORE_BOOTSTRAP_KEY: "pk_live_short_guessable" },
      /PETSTORE_BOOTSTRAP_KEY.*at least 24 characters/
    ],
    [
      "a bootstrap key that is not a bearer token",
      { PETSTORE_BOOTSTRAP_KEY: "pk_live key with spaces in it" },
      /PETSTORE_BOOTSTRAP_KEY.*must be a bearer token/
    ]
  ]
  for (const [label, env, names] of cases) {
    it(
      `${label} stops the process at once, naming the variable, before touching storage`,
      async () => {
        const dataDir = join(await temporaryDirectory(), "data")
        const startedAt = Date.now()
        const server = await startServer({ PETSTORE_DATA_DIR: dataDir, ...env })
        const exit = await Promise.race([
          server.exited,
          new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 15_000))
        ])
        expect(exit, server.output()).not.toBe("still running")
        expect(exit).toMatchObject({ code: expect.any(Number), signal: null })
        expect((exit as { code: number }).code).not.toBe(0)
        expect(Date.now() - startedAt).toBeLessThan(15_000)
        expect(server.stdout() + server.stderr()).toMatch(names)
        expect(server.stdout()).not.toContain("petstore listening")
        expect(existsSync(dataDir)).toBe(false)
        // A refused key is named, never shown.
        if (env.PETSTORE_BOOTSTRAP_KEY !== undefined)
          expect(server.stdout() + server.stderr()).not.toContain(env.PETSTORE_BOOTSTRAP_KEY)
      },
      testTimeout
    )
  }

  it(
    "an unreachable DATABASE_URL stops the process without revealing its password",
    async () => {
      const server = await startServer({ DATABASE_URL: "postgres://petstore:s3cret-pw@127.0.0.1:1/petstore" })
      const exit = await Promise.race([
        server.exited,
        new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 30_000))
      ])
      expect(exit, server.output()).toMatchObject({ code: expect.any(Number), signal: null })
      expect((exit as { code: number }).code).not.toBe(0)
      expect(server.stdout()).not.toContain("petstore listening")
      expect(server.stdout() + server.stderr()).not.toContain("s3cret-pw")
    },
    testTimeout
  )
})

// ---------------------------------------------------------------------------------------------------

/** Tries to connect every 5 ms until the server accepts; fails when the process exits first. */
const firstAcceptedConnection = (server: ServerProcess, timeoutMs: number): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const started = Date.now()
    const attempt = () => {
      if (server.hasExited())
        return reject(new Error(`the server exited before listening\n${server.output()}`))
      if (Date.now() - started > timeoutMs)
        return reject(new Error(`the port did not open within ${timeoutMs} ms\n${server.output()}`))
      const socket = connect({ host: "127.0.0.1", port: server.port })
      socket.once("connect", () => {
        socket.removeAllListeners("error")
        resolve(socket)
      })
      socket.once("error", () => {
        socket.destroy()
        setTimeout(attempt, 5)
      })
    }
    attempt()
  })

/** Writes a raw request on `socket` and reads until the server closes it; fails after `timeoutMs`. */
const exchange = (socket: Socket, request: string, timeoutMs: number): Promise<string> =>
  new Promise((resolve, reject) => {
    let received = ""
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no complete answer within ${timeoutMs} ms (received ${JSON.stringify(received)})`))
    }, timeoutMs)
    socket.setEncoding("utf8")
    socket.on("data", (chunk: string) => {
      received += chunk
    })
    socket.once("error", (error) => {
      clearTimeout(timer)
      reject(error)
    })
    socket.once("end", () => {
      clearTimeout(timer)
      resolve(received)
    })
    socket.write(request)
  })
