/**
 * A `webhooks` row and the webhook it holds, for both the webhook repository and the delivery round
 * (which reads a claimed delivery's webhook): the columns selected, the row opened (its secrets
 * decrypted, `internal/webhookSecrets`) and decoded into a `Webhook`, and a webhook sealed into a
 * row's values. `events` is a `text[]` column, read back as jsonb, so that the server and the
 * embedded PGlite hand over the same array.
 */
import { Webhook, WebhookEvents } from "@petstore/webhooks"
import { Effect, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import { isoText } from "../internal/Instants.js"
import * as WebhookSecrets from "../internal/webhookSecrets.js"
import type { PrivateKeyCipher } from "../PrivateKeyCipher.js"

/** A `webhooks` row as `webhookColumns` select it: `events` as jsonb (parsed), times as `Date`s, secrets sealed. */
export const WebhookRow = Schema.Struct({
  id: Schema.String,
  projectId: Schema.String,
  url: Schema.String,
  events: Schema.toEncoded(WebhookEvents),
  status: Schema.String,
  disabledAt: Schema.NullOr(Schema.Date),
  disabledReason: Schema.NullOr(Schema.String),
  secret: Schema.String,
  previousSecret: Schema.NullOr(Schema.String),
  previousSecretUntil: Schema.NullOr(Schema.Date),
  failingSince: Schema.NullOr(Schema.Date),
  createdAt: Schema.Date
})
export type WebhookRow = typeof WebhookRow.Type

/** The columns of `WebhookRow`, of the table aliased `table`. */
export const webhookColumns = (sql: SqlClient.SqlClient, table: string) =>
  sql.literal(`${table}.id, ${table}.project_id as "projectId", ${table}.url,
    to_jsonb(${table}.events) as events, ${table}.status, ${table}.disabled_at as "disabledAt",
    ${table}.disabled_reason as "disabledReason", ${table}.secret,
    ${table}.previous_secret as "previousSecret", ${table}.previous_secret_until as "previousSecretUntil",
    ${table}.failing_since as "failingSince", ${table}.created_at as "createdAt"`)

const decodeWebhook = Schema.decodeUnknownEffect(Webhook)

/** A row opened (its secrets decrypted) and decoded into a `Webhook`, every field checked again. */
export const webhookOfRow = (cipher: PrivateKeyCipher["Service"], row: WebhookRow) =>
  Effect.gen(function* () {
    const secret = yield* WebhookSecrets.open(cipher, row.id, row.secret)
    const previousSecret = yield* WebhookSecrets.openNullable(cipher, row.id, row.previousSecret)
    return yield* decodeWebhook({
      ...row,
      secret,
      previousSecret,
      disabledAt: isoText(row.disabledAt),
      previousSecretUntil: isoText(row.previousSecretUntil),
      failingSince: isoText(row.failingSince),
      createdAt: isoText(row.createdAt)
    })
  })

/** A webhook sealed into a row's values. */
export const rowOfWebhook = (cipher: PrivateKeyCipher["Service"], webhook: Webhook) =>
  Effect.gen(function* () {
    const secret = yield* WebhookSecrets.seal(cipher, webhook.id, webhook.secret)
    const previousSecret =
      webhook.previousSecret === null
        ? null
        : yield* WebhookSecrets.seal(cipher, webhook.id, webhook.previousSecret)
    return { ...webhook, secret, previousSecret } satisfies Omit<WebhookRow, "events"> & {
      readonly events: Webhook["events"]
    }
  })
