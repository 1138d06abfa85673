/**
 * The two PostgreSQL servers the store runs on, for suites that must hold on both: a fresh database on
 * the test server (fails loudly when unreachable) and the embedded PGlite in a fresh directory.
 */
import type { SqlClient } from "@effect/sql"
import { TestDatabase } from "@petstore/testing"
import { Effect, Layer } from "effect"
import { EmbeddedPostgres, PgStore } from "../src/index.js"
import { temporaryDirectory } from "./temporaryDirectory.js"

export const bothServers: ReadonlyArray<readonly [string, Layer.Layer<SqlClient.SqlClient, unknown>]> = [
  [
    "PostgreSQL",
    Layer.unwrapScoped(
      Effect.map(TestDatabase.make, (database) => PgStore.clientLayer({ url: database.url }))
    )
  ],
  [
    "embedded PGlite",
    Layer.unwrapScoped(
      Effect.map(temporaryDirectory, (dataDirectory) => EmbeddedPostgres.clientLayer({ dataDirectory }))
    )
  ]
]
