/**
 * ApiKeyRepository on PostgreSQL. The hash is unique, so inserting a key already stored is a no-op;
 * revoking is a conditional update, true only for the call that revoked.
 *
 * Every request looks its key up, so `layerCached` keeps the keys it found (see `ApiKeyCache`): a
 * request with a known key then makes no query for it. A revoked key must still be refused at once,
 * by every process, so the cache drops a key as soon as it changes. How it hears of changes is the
 * `invalidation`:
 * - `"notifications"` (a PostgreSQL server, which any number of processes may change): a trigger
 *   (migration 0007) announces each changed hash on `api_key_changes`, which the repository
 *   `LISTEN`s to on a connection of its own, opened at the first lookup. While that connection is not
 *   listening (not yet, or lost and reconnecting) the cache is bypassed; it starts empty each time it
 *   listens again, since changes made in between were not heard.
 * - `"in-process"` (the embedded database: one process can open it, and every change goes through
 *   its repositories): changes made through this repository drop their keys, which is all there is.
 * Changes made through this repository drop their keys at once in either case.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { ApiKeyHash, type ApiKeyId, type ApiKeyRecord, ApiKeyRepository } from "@petstore/kernel"
import { Clock, Duration, Effect, Latch, Layer, Option, Result, Schema, type Scope } from "effect"
import { SqlClient } from "effect/sql"
import { everyRow } from "../internal/CorruptRow.js"
import { Invalidation } from "../internal/Invalidation.js"
import { listenForNotifications } from "../internal/listenForNotifications.js"
import { storageOperation } from "../internal/storageOperation.js"
import { ApiKeyCache } from "./ApiKeyCache.js"
import { apiKeyFromRow } from "./ApiKeyRow.js"

/** The channel migration 0007's trigger announces changed hashes on (an empty payload: all of them). */
export const changesChannel = "api_key_changes"

/**
 * How the cache of keys hears that a key changed (see the module's description): what `layerCached`
 * uses when its options name none, stated by the client layer.
 */
export { Invalidation } from "../internal/Invalidation.js"

export interface CacheOptions {
  /** Default: the `Invalidation` reference (what the client layer says). */
  readonly invalidation?: Invalidation
  /** How many keys are kept (default 10,000); beyond it, the oldest goes. */
  readonly capacity?: number
  /** How long a key is kept at most (default 60 seconds), in case a change is never heard of. */
  readonly timeToLive?: Duration.Input
}

const isApiKeyHash = Schema.is(ApiKeyHash)

const statements = (sql: SqlClient.SqlClient) => ({
  findByHash: (hash: ApiKeyHash) =>
    Effect.flatMap(
      sql`
      select id, account, hash, created_at as "createdAt", revoked_at as "revokedAt"
      from api_keys where hash = ${hash}`,
      ([row]) =>
        row === undefined
          ? Effect.succeedNone
          : Effect.fromResult(Result.map(apiKeyFromRow(row), Option.some))
    ),
  list: Effect.flatMap(
    sql`
    select id, account, hash, created_at as "createdAt", revoked_at as "revokedAt"
    from api_keys order by created_at, id`,
    (rows) => Effect.fromResult(everyRow(rows, apiKeyFromRow))
  ),
  insert: (record: ApiKeyRecord) =>
    Effect.asVoid(sql`
      insert into api_keys (id, account, hash, created_at, revoked_at)
      values (${record.id}, ${record.account}, ${record.hash}, ${record.createdAt},
              ${Option.getOrNull(record.revokedAt)})
      on conflict (hash) do nothing`),
  /** The hashes of the keys revoked: none when there is no such key or it was revoked already. */
  revoke: (id: ApiKeyId, at: Date) =>
    Effect.map(
      sql<{ readonly hash: string }>`
      update api_keys set revoked_at = ${at} where id = ${id} and revoked_at is null returning hash`,
      (rows) => rows.map((row) => row.hash)
    )
})

/** Every lookup reads the database. */
export const make: Effect.Effect<ApiKeyRepository["Service"], never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) => {
    const statement = statements(sql)
    return ApiKeyRepository.of({
      insert: (record) => statement.insert(record).pipe(storageOperation("ApiKeyRepository.insert")),
      findByHash: (hash) => statement.findByHash(hash).pipe(storageOperation("ApiKeyRepository.findByHash")),
      list: statement.list.pipe(storageOperation("ApiKeyRepository.list")),
      revoke: (id, at) =>
        statement.revoke(id, at).pipe(
          Effect.map((hashes) => hashes.length > 0),
          storageOperation("ApiKeyRepository.revoke")
        )
    })
  }
)

export const layer: Layer.Layer<ApiKeyRepository, never, SqlClient.SqlClient> = Layer.effect(
  ApiKeyRepository,
  make
)

/**
 * Keys found are kept (see the module's description). With `"notifications"`, a connection of its
 * own listens from the first lookup until the scope closes.
 */
export const makeCached = Effect.fnUntraced(function* (
  options: CacheOptions = {}
): Effect.fn.Return<
  ApiKeyRepository["Service"],
  never,
  SqlClient.SqlClient | PgClient.PgClient | Scope.Scope
> {
  const sql = yield* SqlClient.SqlClient
  const invalidation = options.invalidation ?? (yield* Invalidation)
  const clock = yield* Clock.Clock
  const cache = new ApiKeyCache(
    options.capacity ?? 10_000,
    Duration.toMillis(Duration.fromInputUnsafe(options.timeToLive ?? Duration.seconds(60))),
    () => clock.currentTimeMillisUnsafe(),
    invalidation === "in-process"
  )
  let startListening = (): void => {}
  if (invalidation === "notifications") {
    const client = yield* PgClient.PgClient
    const start = yield* Latch.make(false)
    const listening = listenForNotifications(client, {
      channel: changesChannel,
      notified: (payload) => (isApiKeyHash(payload) ? cache.changed(payload) : cache.changedAll()),
      listening: () => cache.resume(),
      deaf: () => cache.suspend(),
      outage: "API key changes cannot be heard; keys are read from the database until they can"
    })
    yield* Effect.forkScoped(Effect.andThen(start.await, listening))
    startListening = () => {
      start.openUnsafe()
    }
  }
  const statement = statements(sql)

  // Suspended: the cache is consulted each time the lookup runs, not when it is made.
  const findByHash = (hash: ApiKeyHash) =>
    Effect.suspend(() => {
      const kept = cache.lookup(hash)
      if (kept !== undefined) return Effect.succeed(kept)
      startListening()
      const token = cache.beginRead()
      return statement.findByHash(hash).pipe(
        Effect.map((found) => {
          cache.keep(token, hash, found)
          return found
        }),
        storageOperation("ApiKeyRepository.findByHash")
      )
    })

  return ApiKeyRepository.of({
    insert: (record) =>
      statement
        .insert(record)
        .pipe(
          Effect.ensuring(Effect.sync(() => cache.changed(record.hash))),
          storageOperation("ApiKeyRepository.insert")
        ),
    findByHash,
    list: statement.list.pipe(storageOperation("ApiKeyRepository.list")),
    revoke: (id, at) =>
      statement.revoke(id, at).pipe(
        Effect.onExit((exit) =>
          Effect.sync(() => {
            // A failed revocation may still have committed, and which key it was is unknown.
            if (exit._tag === "Success") for (const hash of exit.value) cache.changed(hash)
            else cache.changedAll()
          })
        ),
        Effect.map((hashes) => hashes.length > 0),
        storageOperation("ApiKeyRepository.revoke")
      )
  })
})

/** `makeCached` as a layer: the listening connection (if any) closes with it. */
export const layerCached = (
  options: CacheOptions = {}
): Layer.Layer<ApiKeyRepository, never, SqlClient.SqlClient | PgClient.PgClient> =>
  Layer.effect(ApiKeyRepository, makeCached(options))
