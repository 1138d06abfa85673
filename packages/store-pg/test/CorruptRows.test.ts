/**
 * A row the domain refuses, read back from the database (its constraints let some through, e.g. a
 * blank name or an account name with capitals): the read fails with the operation's `StorageError`
 * (a 503), never a defect (a 500) and never a value handed on. Likewise for the cached key lookup,
 * which keeps nothing it could not read.
 */
import { expect, layer } from "@effect/vitest"
import { ListLimit, PetId, PetRepository } from "@petstore/catalogue"
import { ApiKeyRepository, StorageError } from "@petstore/kernel"
import { ContractFixtures } from "@petstore/testing"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { PgApiKeyRepository, PgMigrations, PgPetRepository } from "../src/index.js"
import { CorruptRow } from "../src/internal/CorruptRow.js"
import { bothServers } from "./bothServers.js"

const refusal = (error: StorageError, operation: string, rule: string) => {
  expect(error).toBeInstanceOf(StorageError)
  expect(error.operation).toBe(operation)
  expect(error.cause).toBeInstanceOf(CorruptRow)
  expect(error.message).toBe(`${operation} failed: ${rule}`)
}

for (const [name, client] of bothServers) {
  const store = Layer.mergeAll(
    PgPetRepository.layer,
    PgApiKeyRepository.layerCached({ invalidation: "in-process" })
  ).pipe(Layer.provide(PgMigrations.layer), Layer.provideMerge(client))

  layer(store, { excludeTestServices: true, timeout: 120_000 })(`corrupt rows on ${name}`, (it) => {
    it.effect("an animal the domain refuses is a StorageError for findById and list", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const pets = yield* PetRepository
        const marker = yield* ContractFixtures.createMarker
        const [row] = yield* sql<{ readonly id: bigint }>`
          insert into pets (name, category_id, status) values ('   ', 1, 'sold') returning id`
        const found = yield* Effect.flip(pets.findById(PetId.make(Number(row?.id))))
        refusal(found, "PetRepository.findById", "pets.name: must not be blank")
        const listed = yield* Effect.flip(
          pets.list({ limit: ListLimit.make(10), status: Option.none(), after: Option.some(marker.id) })
        )
        refusal(listed, "PetRepository.list", "pets.name: must not be blank")
      })
    )

    it.effect("a key the domain refuses is a StorageError for findByHash, every time", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const keys = yield* ApiKeyRepository
        const record = yield* ContractFixtures.freshApiKey()
        yield* sql`
          insert into api_keys (id, account, hash, created_at)
          values (${record.id}, 'Not-An-Account', ${record.hash}, now())`
        for (let n = 0; n < 2; n++) {
          const error = yield* Effect.flip(keys.findByHash(record.hash))
          refusal(error, "ApiKeyRepository.findByHash", "api_keys.account: must be an account name")
        }
      })
    )
  })
}
