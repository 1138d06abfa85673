/**
 * The `PgClient` layer both the server client and the embedded one are built with: the pool
 * connects lazily, so one statement is run while the layer is built, and a server that cannot be
 * reached fails the layer (a `StorageError`) rather than the first request.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { StorageError } from "@petstore/kernel"
import { Effect, type Layer } from "effect"
import type { SqlClient } from "effect/sql"

export const connectedClientLayer = (
  config: PgClient.PgPoolConfig
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, StorageError> =>
  PgClient.layerFrom(
    PgClient.make(config).pipe(
      Effect.tap((client) => client`select 1`),
      Effect.mapError((cause) => new StorageError({ operation: "PgStore.connect", cause }))
    )
  )
