/**
 * ApiKeyRepository on PostgreSQL. The hash is unique, so inserting a key already stored is a no-op;
 * revoking is a conditional update, true only for the call that revoked.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { ApiKeyHash, ApiKeyId, ApiKeyRecord, ApiKeyRepository } from "@petstore/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { storageOperation } from "./internal/storageOperation.js"

const ApiKeyRecordFromRow = Schema.Struct({
  id: Schema.String,
  account: Schema.String,
  hash: Schema.String,
  createdAt: Schema.DateFromSelf,
  revokedAt: Schema.OptionFromNullOr(Schema.DateFromSelf)
}).pipe(Schema.compose(ApiKeyRecord))

export const make: Effect.Effect<ApiKeyRepository["Type"], never, SqlClient.SqlClient> = Effect.gen(
  function* () {
    const sql = yield* SqlClient.SqlClient

    const findByHash = SqlSchema.findOne({
      Request: ApiKeyHash,
      Result: ApiKeyRecordFromRow,
      execute: (hash) => sql`
      select id, account, hash, created_at as "createdAt", revoked_at as "revokedAt"
      from api_keys where hash = ${hash}`
    })

    const list = SqlSchema.findAll({
      Request: Schema.Void,
      Result: ApiKeyRecordFromRow,
      execute: () => sql`
      select id, account, hash, created_at as "createdAt", revoked_at as "revokedAt"
      from api_keys order by created_at, id`
    })

    const revoke = SqlSchema.findAll({
      Request: Schema.Struct({ id: ApiKeyId, at: Schema.DateFromSelf }),
      Result: Schema.Struct({ id: Schema.String }),
      execute: ({ at, id }) => sql`
      update api_keys set revoked_at = ${at} where id = ${id} and revoked_at is null returning id`
    })

    return ApiKeyRepository.of({
      insert: (record) =>
        sql`
        insert into api_keys (id, account, hash, created_at, revoked_at)
        values (${record.id}, ${record.account}, ${record.hash}, ${record.createdAt},
                ${Option.getOrNull(record.revokedAt)})
        on conflict (hash) do nothing`.pipe(Effect.asVoid, storageOperation("ApiKeyRepository.insert")),
      findByHash: (hash) => findByHash(hash).pipe(storageOperation("ApiKeyRepository.findByHash")),
      list: list(undefined).pipe(storageOperation("ApiKeyRepository.list")),
      revoke: (id, at) =>
        revoke({ id, at }).pipe(
          Effect.map((rows) => rows.length > 0),
          storageOperation("ApiKeyRepository.revoke")
        )
    })
  }
)

export const layer: Layer.Layer<ApiKeyRepository, never, SqlClient.SqlClient> = Layer.effect(
  ApiKeyRepository,
  make
)
