/**
 * StorageHealth on PostgreSQL: a trivial query that has to make a round trip within a few seconds
 * (a server that accepts connections but never answers is not ready either).
 */
import { StorageHealth } from "@petstore/kernel"
import { Duration, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { storageOperation } from "./internal/storageOperation.js"

export const checkTimeout = Duration.seconds(5)

export const make: Effect.Effect<StorageHealth["Service"], never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) =>
    StorageHealth.of({
      check: sql`select 1`.pipe(
        Effect.asVoid,
        Effect.timeout(checkTimeout),
        storageOperation("StorageHealth.check")
      )
    })
)

export const layer: Layer.Layer<StorageHealth, never, SqlClient.SqlClient> = Layer.effect(StorageHealth, make)
