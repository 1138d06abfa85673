/**
 * The key administration as the server serves it, through raw requests: its endpoint file is private
 * to its owner and gone when it stops, nothing is read or written without the secret, a body larger
 * than a key record is refused, and a storage failure answers 500 without saying why (the log says).
 * How the CLI's client behaves over it is tested with the client (`api-key-admin-client`).
 */
import { mkdtemp, readFile, stat } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { ApiKeyAdminEndpoint } from "@petstore/api"
import { ApiKeyRepository, StorageError } from "@petstore/kernel"
import { MemoryApiKeyRepository } from "@petstore/store-memory"
import { ContractFixtures } from "@petstore/testing"
import { Context, Effect, Layer, Logger, Schema } from "effect"
import { LocalApiKeyAdmin } from "../src/index.js"

const temporaryDirectory = Effect.promise(() => mkdtemp(join(tmpdir(), "petstore-admin-")))

const endpointFile = (directory: string) => join(directory, ApiKeyAdminEndpoint.adminEndpointFileName)

/** The key administration over `keys` in a fresh directory: its endpoint and the keys it serves. */
const running = (keys: Layer.Layer<ApiKeyRepository>) =>
  Effect.gen(function* () {
    const directory = yield* temporaryDirectory
    const context = yield* Layer.build(LocalApiKeyAdmin.layer({ directory }).pipe(Layer.provideMerge(keys)))
    const text = yield* Effect.promise(() => readFile(endpointFile(directory), "utf8"))
    const endpoint = yield* Schema.decodeEffect(ApiKeyAdminEndpoint.AdminEndpointJson)(text)
    return { directory, endpoint, keys: Context.get(context, ApiKeyRepository) }
  })

const send = (port: number, path: string, init: RequestInit = {}) =>
  Effect.promise(async () => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, init)
    return { status: response.status, body: await response.text() }
  })

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

describe("the key administration", () => {
  it.live("writes an endpoint file private to its owner, gone when the server stops", () =>
    Effect.gen(function* () {
      const directory = yield* Effect.scoped(
        Effect.gen(function* () {
          const { directory } = yield* running(MemoryApiKeyRepository.layer)
          const mode = (yield* Effect.promise(() => stat(endpointFile(directory)))).mode & 0o777
          expect(mode).toBe(0o600)
          return directory
        })
      )
      const after = yield* Effect.promise(() =>
        stat(endpointFile(directory)).then(
          () => "present",
          () => "absent"
        )
      )
      expect(after).toBe("absent")
    })
  )

  it.live("without the secret, reads and writes nothing", () =>
    Effect.gen(function* () {
      const { endpoint, keys } = yield* running(MemoryApiKeyRepository.layer)
      const record = yield* ContractFixtures.freshApiKey()
      const body = JSON.stringify({
        id: record.id,
        account: record.account,
        hash: record.hash,
        createdAt: record.createdAt.toISOString(),
        revokedAt: null
      })
      const post = (headers: Record<string, string>) =>
        send(endpoint.port, "/api-keys", {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body
        })
      for (const headers of [{}, bearer("A".repeat(43)), { authorization: `Basic ${endpoint.token}` }]) {
        expect((yield* send(endpoint.port, "/api-keys", { headers })).status).toBe(401)
        expect((yield* post(headers)).status).toBe(401)
      }
      expect(yield* keys.list).toEqual([])

      // The same request with the secret is served.
      expect((yield* post(bearer(endpoint.token))).status).toBe(204)
      const listed = yield* send(endpoint.port, "/api-keys", { headers: bearer(endpoint.token) })
      expect(listed.status).toBe(200)
      expect(JSON.parse(listed.body)).toEqual([JSON.parse(body)])
    })
  )

  it.live("refuses a body larger than a key record", () =>
    Effect.gen(function* () {
      const { endpoint, keys } = yield* running(MemoryApiKeyRepository.layer)
      const answer = yield* send(endpoint.port, "/api-keys", {
        method: "POST",
        headers: { "content-type": "application/json", ...bearer(endpoint.token) },
        body: JSON.stringify({ padding: "x".repeat(32 * 1024) })
      })
      expect(answer.status).toBe(413)
      expect(yield* keys.list).toEqual([])
    })
  )

  it.live("answers a storage failure with 500 and no detail, and logs why", () =>
    Effect.gen(function* () {
      const logged: Array<string> = []
      const textOf = (part: unknown) => (part instanceof Error ? part.message : String(part))
      const failing = Layer.succeed(ApiKeyRepository, {
        insert: () => Effect.void,
        findByHash: () => Effect.die("unused"),
        revoke: () => Effect.die("unused"),
        list: Effect.fail(
          new StorageError({ operation: "list", cause: new Error("connection to db.internal refused") })
        )
      })
      const { endpoint } = yield* running(failing).pipe(
        Effect.provide(
          Logger.layer([Logger.make(({ message }) => logged.push([message].flat().map(textOf).join(" ")))], {
            mergeWithExisting: false
          })
        )
      )
      const answer = yield* send(endpoint.port, "/api-keys", { headers: bearer(endpoint.token) })
      expect(answer.status).toBe(500)
      expect(answer.body).not.toMatch(/db\.internal|refused|list/)
      expect(logged.join("\n")).toContain("key administration request failed")
      expect(logged.join("\n")).toContain("db.internal")
    })
  )
})
