/**
 * The HTTP contract suite through a real server on the embedded PostgreSQL (PGlite) in a fresh data
 * directory, migrated exactly as the API process migrates it.
 */
import { petsApiSuite } from "@petstore/http/testing"
import { EmbeddedPostgres, PgMigrations, PgStore } from "@petstore/store-pg"
import { Effect, Layer } from "effect"
import { temporaryDirectory } from "./support/temporaryDirectory.js"

const client = Layer.unwrapScoped(
  Effect.map(temporaryDirectory, (dataDirectory) => EmbeddedPostgres.clientLayer({ dataDirectory }))
)

petsApiSuite(
  "embedded PostgreSQL",
  PgStore.layer.pipe(Layer.provide(PgMigrations.layer), Layer.provide(client))
)
