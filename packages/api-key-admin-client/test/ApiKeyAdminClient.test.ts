/**
 * The key CLI's path to a running server's keys: the client over a real key administration must
 * behave exactly as any `ApiKeyRepository` (the same contract suite), find the server from its data
 * directory only while it runs, and turn every refusal or absence into a `StorageError`.
 */
import { mkdtemp, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { ApiKeyAdminEndpoint } from "@petstore/api"
import { LocalApiKeyAdmin } from "@petstore/http"
import { ApiKeyRepository, StorageError } from "@petstore/kernel"
import { MemoryApiKeyRepository } from "@petstore/store-memory"
import { apiKeyRepositoryContract, ContractFixtures } from "@petstore/testing"
import { Context, Effect, Exit, Layer, Option, Scope } from "effect"
import { AdminEndpointFile, ApiKeyAdminClient } from "../src/index.js"

const temporaryDirectory = Effect.promise(() => mkdtemp(join(tmpdir(), "petstore-admin-")))

/** The endpoint the running server wrote into `directory`; the test fails when there is none. */
const endpointIn = (directory: string) =>
  Effect.flatMap(AdminEndpointFile.findEndpoint(directory), (found) =>
    Option.isSome(found) ? Effect.succeed(found.value) : Effect.die(new Error("no endpoint file was written"))
  )

/** A server's keys behind its key administration, seen through the client. */
const clientOverServer = (directory: string) =>
  Layer.unwrap(Effect.map(endpointIn(directory), ApiKeyAdminClient.layer)).pipe(
    Layer.provide(LocalApiKeyAdmin.layer({ directory }).pipe(Layer.provide(MemoryApiKeyRepository.layer)))
  )

apiKeyRepositoryContract(
  "the key administration client over a server's key administration",
  Layer.unwrap(Effect.map(temporaryDirectory, clientOverServer))
)

/** A running key administration over memory keys in `directory`: its endpoint and its own repository. */
const runningServer = (directory: string) =>
  Effect.gen(function* () {
    const context = yield* Layer.build(
      LocalApiKeyAdmin.layer({ directory }).pipe(Layer.provideMerge(MemoryApiKeyRepository.layer))
    )
    return { endpoint: yield* endpointIn(directory), local: Context.get(context, ApiKeyRepository) }
  })

const clientFor = (endpoint: ApiKeyAdminEndpoint.AdminEndpoint) =>
  Effect.provide(ApiKeyRepository, ApiKeyAdminClient.layer(endpoint))

describe("the key administration client", () => {
  it.live("without the secret, reads and writes nothing and fails with a StorageError", () =>
    Effect.gen(function* () {
      const { endpoint, local } = yield* runningServer(yield* temporaryDirectory)
      const impostor = yield* clientFor({ port: endpoint.port, token: "A".repeat(43) })
      const record = yield* ContractFixtures.freshApiKey()
      yield* local.insert(record)

      const listed = yield* Effect.flip(impostor.list)
      expect(listed).toBeInstanceOf(StorageError)
      expect(listed.message).toBe(
        "ApiKeyAdminClient.list failed: the running server refused the key administration's secret"
      )
      expect(yield* Effect.flip(impostor.findByHash(record.hash))).toBeInstanceOf(StorageError)
      expect(yield* Effect.flip(impostor.revoke(record.id, new Date()))).toBeInstanceOf(StorageError)
      const other = yield* ContractFixtures.freshApiKey()
      expect(yield* Effect.flip(impostor.insert(other))).toBeInstanceOf(StorageError)

      // The key the impostor tried to revoke is still active; the one it tried to insert is absent.
      const stored = yield* local.list
      expect(stored.map((key) => [key.id, Option.isNone(key.revokedAt)])).toEqual([[record.id, true]])
    })
  )

  it.live("a server that has stopped is a StorageError, and its endpoint file is gone", () =>
    Effect.gen(function* () {
      const directory = yield* temporaryDirectory
      const scope = yield* Scope.make()
      const { endpoint } = yield* runningServer(directory).pipe(Scope.provide(scope))
      const client = yield* clientFor(endpoint)
      expect(yield* client.list).toEqual([])
      yield* Scope.close(scope, Exit.void)
      expect(yield* AdminEndpointFile.findEndpoint(directory)).toEqual(Option.none())
      const error = yield* Effect.flip(client.list)
      expect(error).toBeInstanceOf(StorageError)
      expect(error.operation).toBe("ApiKeyAdminClient.list")
    })
  )

  it.effect("finds no server where no endpoint file, or an unreadable one, is", () =>
    Effect.gen(function* () {
      const directory = yield* temporaryDirectory
      expect(yield* AdminEndpointFile.findEndpoint(directory)).toEqual(Option.none())
      const file = join(directory, ApiKeyAdminEndpoint.adminEndpointFileName)
      for (const text of ["", "{", JSON.stringify({ port: 0, token: "A".repeat(43) }), '{"port":4000}']) {
        yield* Effect.promise(() => writeFile(file, text))
        expect(yield* AdminEndpointFile.findEndpoint(directory)).toEqual(Option.none())
      }
      yield* Effect.promise(() => writeFile(file, JSON.stringify({ port: 4000, token: "A".repeat(43) })))
      expect(yield* AdminEndpointFile.findEndpoint(directory)).toEqual(
        Option.some({ port: 4000, token: "A".repeat(43) })
      )
    })
  )
})
