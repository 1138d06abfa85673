/**
 * The HTTP contract suite through a real server on a PostgreSQL server: a fresh database for this
 * file, migrated exactly as the API process migrates it. An unreachable server fails the suite.
 */
import { petsApiSuite } from "@petstore/http/testing"
import { PgMigrations, PgStore } from "@petstore/store-pg"
import { TestDatabase } from "@petstore/testing"
import { Effect, Layer } from "effect"

const client = Layer.unwrapScoped(
  Effect.map(TestDatabase.make, (database) => PgStore.clientLayer({ url: database.url }))
)

petsApiSuite("PostgreSQL", PgStore.layer.pipe(Layer.provide(PgMigrations.layer), Layer.provide(client)))
