/**
 * The repository contract against the embedded PGlite, plus what is particular to it: data persists
 * in its directory, the directory is locked while open, and statements of concurrent requests queue
 * on its single connection without leaking into each other's transactions.
 */

import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import {
  AccountName,
  ApiKeyRepository,
  IdempotencyKey,
  IdempotencyRepository,
  PetRepository
} from "@petstore/domain"
import { ContractFixtures, storeContract } from "@petstore/testing"
import { Array as Arr, Effect, Exit, Layer, Option, Redacted } from "effect"
import { EmbeddedPostgres, PgMigrations, PgStore, PrivateKeyCipher } from "../src/index.js"
import { temporaryDirectory } from "./temporaryDirectory.js"

const embeddedStore = (dataDirectory: string) => {
  const client = EmbeddedPostgres.clientLayer({ dataDirectory })
  const stores = Layer.mergeAll(PgStore.layer, PgStore.certificatesLayer).pipe(
    Layer.provide(PrivateKeyCipher.layer(Redacted.make("test secret for the embedded PGlite store")))
  )
  return Layer.provideMerge(stores, Layer.provideMerge(PgMigrations.layer, client))
}

storeContract(
  "PgStore on embedded PGlite",
  Layer.unwrapScoped(Effect.map(temporaryDirectory, embeddedStore)),
  { timeout: 120_000 }
)

describe("EmbeddedPostgres", () => {
  it.live(
    "data survives closing and reopening the directory",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const directory = yield* temporaryDirectory
          const scope = { account: AccountName.make("persist"), key: IdempotencyKey.make("persist-1") }
          const apiKey = yield* ContractFixtures.freshApiKey("persist")

          const written = yield* Effect.gen(function* () {
            const pets = yield* PetRepository
            const keys = yield* IdempotencyRepository
            const apiKeys = yield* ApiKeyRepository
            yield* keys.reserve(scope, "fp", ContractFixtures.t0)
            const first = yield* pets.create(ContractFixtures.newPet("Persistent 🐢"), Option.some(scope))
            const second = yield* pets.create(
              ContractFixtures.newPet("Big", { status: "sold", categoryId: 9007199254740991 }),
              Option.none()
            )
            yield* apiKeys.insert(apiKey)
            return [first, second] as const
          }).pipe(Effect.provide(embeddedStore(directory)))

          yield* Effect.gen(function* () {
            const pets = yield* PetRepository
            const keys = yield* IdempotencyRepository
            const apiKeys = yield* ApiKeyRepository
            expect(yield* pets.list(ContractFixtures.query(10))).toEqual({
              pets: written,
              nextAfter: Option.none()
            })
            expect(
              yield* keys.reserve(scope, "fp", ContractFixtures.later(ContractFixtures.t0, 1_000))
            ).toEqual({
              _tag: "Replay",
              petId: written[0].id
            })
            expect(Option.map(yield* apiKeys.findByHash(apiKey.hash), (found) => found.id)).toEqual(
              Option.some(apiKey.id)
            )
            const third = yield* pets.create(ContractFixtures.newPet("After reopening"), Option.none())
            expect(third.id).toBeGreaterThan(written[1].id)
            // Reopening applied no migration twice.
            expect(yield* PgMigrations.run).toEqual([])
          }).pipe(Effect.provide(embeddedStore(directory)))
        })
      ),
    120_000
  )

  it.live(
    "the directory is locked while open; a lock left by a dead process is taken over",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const directory = yield* temporaryDirectory
          yield* Effect.scoped(
            Effect.gen(function* () {
              yield* EmbeddedPostgres.start({ dataDirectory: directory })
              const second = yield* Effect.exit(
                Effect.scoped(EmbeddedPostgres.start({ dataDirectory: directory }))
              )
              expect(Exit.isFailure(second)).toBe(true)
              if (Exit.isFailure(second)) expect(String(second.cause)).toContain("is in use by process")
            })
          )
          yield* Effect.promise(() => writeFile(join(directory, EmbeddedPostgres.lockFileName), "999999999"))
          const reopened = yield* Effect.scoped(EmbeddedPostgres.start({ dataDirectory: directory }))
          expect(reopened.dataDirectory).toBe(directory)
        })
      ),
    120_000
  )

  it.live(
    "concurrent statements queue on the one connection and stay out of a transaction that rolls back",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const directory = yield* temporaryDirectory
          yield* Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            const pets = yield* PetRepository
            const marker = yield* ContractFixtures.createMarker
            const doomed = sql.withTransaction(
              Effect.gen(function* () {
                yield* pets.create(ContractFixtures.newPet("Rolled back"), Option.none())
                yield* Effect.sleep("200 millis")
                return yield* Effect.fail("abort" as const)
              })
            )
            const [rolledBack, created] = yield* Effect.all(
              [
                Effect.exit(doomed),
                Effect.delay(
                  Effect.forEach(
                    Arr.range(1, 20),
                    (n) => pets.create(ContractFixtures.newPet(`Q${n}`), Option.none()),
                    {
                      concurrency: "unbounded"
                    }
                  ),
                  "20 millis"
                )
              ],
              { concurrency: "unbounded" }
            )
            expect(Exit.isFailure(rolledBack)).toBe(true)
            const listed = yield* pets.list(ContractFixtures.query(100, { after: marker.id }))
            expect(listed.pets.map((pet) => pet.name)).not.toContain("Rolled back")
            expect(listed.pets.map((pet) => pet.id)).toEqual(
              created.map((pet) => pet.id).sort((a, b) => a - b)
            )
          }).pipe(Effect.provide(embeddedStore(directory)))
        })
      ),
    120_000
  )
})
