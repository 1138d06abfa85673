/**
 * The key CLI's path to a running server's keys: the loopback key administration and the remote
 * repository over it must behave exactly as any `ApiKeyRepository` (the same contract suite), and
 * refuse anyone without the secret.
 */
import { mkdtemp, readFile, stat } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect, it } from "@effect/vitest"
import { ApiKeyRepository, StorageError } from "@petstore/kernel"
import { MemoryApiKeyRepository } from "@petstore/store-memory"
import { apiKeyRepositoryContract, ContractFixtures } from "@petstore/testing"
import { Effect, Layer, Option } from "effect"
import { ApiKeyAdminProtocol, LocalApiKeyAdmin, RemoteApiKeyRepository } from "../src/index.js"

const temporaryDirectory = Effect.promise(() => mkdtemp(join(tmpdir(), "petstore-admin-")))

/** A server's keys behind its key administration, seen through the remote repository. */
const remoteOverLocal = (directory: string) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const endpoint = yield* RemoteApiKeyRepository.findEndpoint(directory)
      if (Option.isNone(endpoint)) return yield* Effect.die(new Error("no endpoint file was written"))
      return RemoteApiKeyRepository.layer(endpoint.value)
    })
  ).pipe(
    Layer.provide(LocalApiKeyAdmin.layer({ directory }).pipe(Layer.provide(MemoryApiKeyRepository.layer)))
  )

apiKeyRepositoryContract(
  "the remote key repository over a server's key administration",
  Layer.unwrap(Effect.map(temporaryDirectory, remoteOverLocal))
)

it.live("the endpoint file is private to its owner and gone when the server stops", () =>
  Effect.gen(function* () {
    const directory = yield* temporaryDirectory
    const file = join(directory, ApiKeyAdminProtocol.adminEndpointFileName)
    yield* Effect.scoped(
      Effect.gen(function* () {
        yield* Layer.build(
          LocalApiKeyAdmin.layer({ directory }).pipe(Layer.provide(MemoryApiKeyRepository.layer))
        )
        const mode = (yield* Effect.promise(() => stat(file))).mode & 0o777
        expect(mode).toBe(0o600)
      })
    )
    const after = yield* Effect.promise(() =>
      stat(file).then(
        () => "present",
        () => "absent"
      )
    )
    expect(after).toBe("absent")
  })
)

it.live("without the secret, nothing is read or written", () =>
  Effect.gen(function* () {
    const directory = yield* temporaryDirectory
    yield* Effect.scoped(
      Effect.gen(function* () {
        const context = yield* Layer.build(
          LocalApiKeyAdmin.layer({ directory }).pipe(Layer.provideMerge(MemoryApiKeyRepository.layer))
        )
        const local = yield* Effect.provide(ApiKeyRepository, context)
        const endpoint = JSON.parse(
          yield* Effect.promise(() =>
            readFile(join(directory, ApiKeyAdminProtocol.adminEndpointFileName), "utf8")
          )
        ) as { port: number; token: string }
        const impostor = yield* Effect.provide(
          ApiKeyRepository,
          RemoteApiKeyRepository.layer({ port: endpoint.port, token: "A".repeat(43) })
        )
        const listed = yield* Effect.flip(impostor.list)
        expect(listed).toBeInstanceOf(StorageError)
        const record = yield* ContractFixtures.freshApiKey()
        const inserted = yield* Effect.flip(impostor.insert(record))
        expect(inserted).toBeInstanceOf(StorageError)
        expect(yield* local.list).toEqual([])
        const raw = yield* Effect.promise(() => fetch(`http://127.0.0.1:${endpoint.port}/api-keys`))
        expect(raw.status).toBe(401)
      })
    )
  })
)
