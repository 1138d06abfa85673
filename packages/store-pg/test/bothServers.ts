/**
 * The two PostgreSQL servers the store runs on, for suites that must hold on both: a fresh database on
 * the test server (fails loudly when unreachable) and the embedded PGlite in a fresh directory.
 */

import type * as PgClient from "@effect/sql-pg/PgClient"
import { TestDatabase } from "@petstore/testing"
import { Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { EmbeddedPostgres, PgStore } from "../src/index.js"
import { temporaryDirectory } from "./temporaryDirectory.js"

export const bothServers: ReadonlyArray<
  readonly [string, Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, unknown>]
> = [
  [
    "PostgreSQL",
    Layer.unwrap(Effect.map(TestDatabase.make, (database) => PgStore.clientLayer({ url: database.url })))
  ],
  [
    "embedded PGlite",
    Layer.unwrap(
      Effect.map(temporaryDirectory, (dataDirectory) => EmbeddedPostgres.clientLayer({ dataDirectory }))
    )
  ]
]
