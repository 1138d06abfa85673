/**
 * The repository contract against a real PostgreSQL server: one fresh database for this file.
 */
import { storeContract, TestDatabase } from "@petstore/testing"
import { Effect, Layer } from "effect"
import { PgMigrations, PgStore } from "../src/index.js"

const client = Layer.unwrapScoped(
  Effect.map(TestDatabase.make, (database) => PgStore.clientLayer({ url: database.url }))
)

storeContract(
  "PgStore on PostgreSQL",
  PgStore.layer.pipe(Layer.provide(PgMigrations.layer), Layer.provide(client))
)
