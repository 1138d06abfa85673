/**
 * Webhooks made safe to run for anyone (contract section 9, issue 25): their secrets encrypted at
 * rest, a second secret during a rotation's overlap, a status (disabled after failing for long, with
 * the reason), the lane lease that keeps one delivery per webhook in flight, and attempts' errors that
 * are generic reasons only.
 *
 * The plain secrets stored by 0011 are encrypted here (`internal/webhookSecrets`), which is why this
 * migration is made with the cipher. Their plain text may still sit in files written before it (old
 * WAL segments, dead row versions until vacuumed, backups): operators should rotate the secrets of
 * webhooks created before it. The errors recorded before it named addresses and resolvers' messages;
 * they become the reason each stood for. Spelt out as they were when this was written: a migration
 * never changes.
 */
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import * as WebhookSecrets from "../internal/webhookSecrets.js"
import type { PrivateKeyCipher } from "../PrivateKeyCipher.js"

const reasonPattern = "^(refused_address|dns_error|timeout|tls_error|connection_error|http_[1-9][0-9]{2})$"

const PlainSecretRow = Schema.Struct({ id: Schema.String, secret: Schema.String })

export default (cipher: PrivateKeyCipher["Service"]) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`alter table webhooks drop constraint webhooks_secret_check`
    const plain = yield* Effect.flatMap(
      sql`select id, secret from webhooks where secret ~ '^whsec_' order by position`,
      Schema.decodeUnknownEffect(Schema.Array(PlainSecretRow))
    )
    for (const row of plain) {
      const sealed = yield* WebhookSecrets.seal(cipher, row.id, row.secret)
      yield* sql`update webhooks set secret = ${sealed} where id = ${row.id}`
    }
    yield* sql`
      alter table webhooks
        add constraint webhooks_secret_sealed check (secret ~ '^v1\\.'),
        add column previous_secret text null check (previous_secret ~ '^v1\\.'),
        add column previous_secret_until timestamptz null check (isfinite(previous_secret_until)),
        add column status text not null default 'enabled' check (status in ('enabled', 'disabled')),
        add column disabled_at timestamptz null,
        add column disabled_reason text null check (disabled_reason ~ ${sql.literal(`'${reasonPattern}'`)}),
        add column failing_since timestamptz null,
        add column lane_holder text null,
        add column lane_until timestamptz null,
        add check ((previous_secret is null) = (previous_secret_until is null)),
        add check ((status = 'disabled') = (disabled_at is not null)),
        add check ((disabled_at is null) = (disabled_reason is null)),
        add check ((lane_holder is null) = (lane_until is null))`
    yield* sql`
      update webhook_attempts set error = case
        when http_status is not null then 'http_' || http_status
        when error like '%may not reach%' or error like 'the URL %' then 'refused_address'
        when error like 'cannot resolve%' then 'dns_error'
        when error like 'no answer within%' then 'timeout'
        when error like 'TLS failure%' then 'tls_error'
        else 'connection_error' end
      where error is not null`
    yield* sql`
      alter table webhook_attempts
        add constraint webhook_attempts_reason check (error ~ ${sql.literal(`'${reasonPattern}'`)})`
  })
