/**
 * OwnershipRepository on PostgreSQL: `ownership_tokens` keeps one token per account and name, made
 * from `node:crypto` (128 bits). A token is offered with `on conflict do nothing` and the stored one
 * is then read in a statement of its own: an insert that meets a concurrent one waits for it to
 * commit, and the next statement sees it, so concurrent callers all get the token stored first.
 * `hostname_releases` keeps the latest release per account and hostname.
 */
import { randomBytes } from "node:crypto"
import { OwnershipToken, ownershipTokenBytes, ownershipTokenFrom } from "@petstore/domains"
import { AccountName } from "@petstore/kernel"
import { OwnershipRepository } from "@petstore/ownership"
import { Effect, Layer, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { storageOperation } from "../internal/storageOperation.js"

const TokenKey = Schema.Struct({ account: AccountName, name: Schema.String })

export const make: Effect.Effect<OwnershipRepository["Service"], never, SqlClient.SqlClient> = Effect.gen(
  function* () {
    const sql = yield* SqlClient.SqlClient

    const offerToken = SqlSchema.void({
      Request: Schema.Struct({ ...TokenKey.fields, token: OwnershipToken }),
      execute: ({ account, name, token }) => sql`
        insert into ownership_tokens (account, name, token) values (${account}, ${name}, ${token})
        on conflict (account, name) do nothing`
    })

    const storedToken = SqlSchema.findOne({
      Request: TokenKey,
      Result: Schema.Struct({ token: OwnershipToken }),
      execute: ({ account, name }) => sql`
        select token from ownership_tokens where account = ${account} and name = ${name}`
    })

    const recordRelease = SqlSchema.void({
      Request: Schema.Struct({ account: AccountName, hostname: Schema.String, at: Schema.Date }),
      execute: ({ account, at, hostname }) => sql`
        insert into hostname_releases (account, hostname, released_at) values (${account}, ${hostname}, ${at})
        on conflict (account, hostname)
        do update set released_at = greatest(hostname_releases.released_at, excluded.released_at)`
    })

    const releasesSince = SqlSchema.findAll({
      Request: Schema.Struct({ hostnames: Schema.Array(Schema.String), since: Schema.Date }),
      Result: Schema.Struct({ account: AccountName, hostname: Schema.String, releasedAt: Schema.Date }),
      execute: ({ hostnames, since }) => sql`
        select account, hostname, released_at as "releasedAt" from hostname_releases
        where hostname in (select jsonb_array_elements_text(${JSON.stringify(hostnames)}::jsonb))
          and released_at > ${since}
        order by released_at`
    })

    return OwnershipRepository.of({
      tokenFor: (account, name) =>
        Effect.sync(() => ownershipTokenFrom(randomBytes(ownershipTokenBytes))).pipe(
          Effect.flatMap((token) => offerToken({ account, name, token })),
          Effect.andThen(storedToken({ account, name })),
          Effect.map(({ token }) => token),
          storageOperation("OwnershipRepository.tokenFor")
        ),
      recordRelease: (account, hostname, at) =>
        recordRelease({ account, hostname, at }).pipe(storageOperation("OwnershipRepository.recordRelease")),
      releasesSince: (hostnames, since) =>
        releasesSince({ hostnames, since }).pipe(storageOperation("OwnershipRepository.releasesSince"))
    })
  }
)

export const layer: Layer.Layer<OwnershipRepository, never, SqlClient.SqlClient> = Layer.effect(
  OwnershipRepository,
  make
)
