/**
 * The storage the configuration chose, with its migrations run before anything uses it.
 */
import type { SqlClient } from "@effect/sql"
import { MemoryStore } from "@petstore/store-memory"
import { EmbeddedPostgres, PgMigrations, PgStore } from "@petstore/store-pg"
import { Layer } from "effect"
import type { StorageChoice } from "./AppConfig.js"

export const storageLayer = (choice: StorageChoice) => {
  switch (choice._tag) {
    case "Memory":
      return MemoryStore.layer
    case "Postgres":
      return onPostgres(PgStore.clientLayer({ url: choice.url }))
    case "Embedded":
      return onPostgres(EmbeddedPostgres.clientLayer({ dataDirectory: choice.dataDir }))
  }
}

const onPostgres = <E, R>(client: Layer.Layer<SqlClient.SqlClient, E, R>) =>
  PgStore.layer.pipe(Layer.provide(PgMigrations.layer), Layer.provide(client))
