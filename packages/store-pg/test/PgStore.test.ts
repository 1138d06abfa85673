/**
 * The repository contract against a real PostgreSQL server: one fresh database for this file.
 */
import { storeContract, TestDatabase } from "@petstore/testing"
import { Effect, Layer, Redacted } from "effect"
import { PgMigrations, PgStore, PrivateKeyCipher } from "../src/index.js"

const client = Layer.unwrap(
  Effect.map(TestDatabase.make, (database) => PgStore.clientLayer({ url: database.url }))
)

storeContract(
  "PgStore on PostgreSQL",
  Layer.mergeAll(PgStore.layer, PgStore.certificatesLayer).pipe(
    Layer.provide(PgMigrations.layer),
    Layer.provide(client),
    Layer.provide(PrivateKeyCipher.layer(Redacted.make("test secret for PgStore on PostgreSQL")))
  )
)
