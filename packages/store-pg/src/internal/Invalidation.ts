/**
 * How what a process keeps in memory from the database (API keys, the edge's decisions) hears that
 * it changed: a fact about the database the client reaches, which the client layer states.
 * - `"notifications"`: a PostgreSQL server, which any number of processes may change; their changes
 *   are heard by `LISTEN`ing (`listenForNotifications`).
 * - `"in-process"`: the embedded database, which one process alone can open; every change goes
 *   through its repositories, so this process's own changes are all there are.
 */
import { Context } from "effect"

export type Invalidation = "notifications" | "in-process"

/** `EmbeddedPostgres.clientLayer` provides `"in-process"`; any other client gets `"notifications"`. */
export const Invalidation = Context.Reference<Invalidation>(
  "@petstore/store-pg/PgApiKeyRepository/Invalidation",
  {
    defaultValue: () => "notifications"
  }
)
