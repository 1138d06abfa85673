/**
 * Http01ChallengeStore on PostgreSQL: key authorizations by token in `http01_challenges`, so that
 * whichever process the CA's validation request reaches can answer it, whichever process started the
 * order. Putting a token again replaces its key authorization.
 */
import { Http01ChallengeStore } from "@petstore/certificates"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { storageOperation } from "../internal/storageOperation.js"

const Challenge = Schema.Struct({ token: Schema.String, keyAuthorization: Schema.String })

export const make: Effect.Effect<Http01ChallengeStore["Service"], never, SqlClient.SqlClient> = Effect.gen(
  function* () {
    const sql = yield* SqlClient.SqlClient

    const upsert = SqlSchema.void({
      Request: Challenge,
      execute: ({ keyAuthorization, token }) => sql`
        insert into http01_challenges (token, key_authorization, created_at)
        values (${token}, ${keyAuthorization}, now())
        on conflict (token) do update set key_authorization = excluded.key_authorization,
          created_at = excluded.created_at`
    })

    const findByToken = SqlSchema.findOneOption({
      Request: Schema.String,
      Result: Challenge,
      execute: (token) => sql`
        select token, key_authorization as "keyAuthorization" from http01_challenges
        where token = ${token}`
    })

    const remove = SqlSchema.void({
      Request: Schema.String,
      execute: (token) => sql`delete from http01_challenges where token = ${token}`
    })

    return Http01ChallengeStore.of({
      put: (token, keyAuthorization) =>
        upsert({ token, keyAuthorization }).pipe(storageOperation("Http01ChallengeStore.put")),
      remove: (token) => remove(token).pipe(storageOperation("Http01ChallengeStore.remove")),
      find: (token) =>
        findByToken(token).pipe(
          Effect.map(Option.map((challenge) => challenge.keyAuthorization)),
          storageOperation("Http01ChallengeStore.find")
        )
    })
  }
)

export const layer: Layer.Layer<Http01ChallengeStore, never, SqlClient.SqlClient> = Layer.effect(
  Http01ChallengeStore,
  make
)
