/**
 * WebhookRepository on PostgreSQL: `webhooks` keeps a project's webhooks (listed in the order they
 * were stored, `position`), `webhook_attempts` the worker's attempts at their deliveries. A new
 * webhook's id and secret are made here from `node:crypto` (SQL's `random()` is not a secure source),
 * spelt by the domain. Removing a webhook removes its deliveries and their attempts with it (the
 * references cascade), so a worker's late result for one finds nothing to store.
 *
 * `events` is a `text[]` column, read back as jsonb, so that the server and the embedded PGlite hand
 * over the same array; every row is decoded into a `Webhook` or a `DeliveryAttempt` again.
 */
import { randomBytes } from "node:crypto"
import {
  DeliveryAttempt,
  DeliveryAttemptStatus,
  newWebhook,
  ProjectId,
  Webhook,
  WebhookEvents,
  WebhookId,
  WebhookRepository
} from "@petstore/custom-domains"
import { Effect, Layer, Schema, SchemaTransformation } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { storageOperation } from "./internal/storageOperation.js"

/** A `webhooks` row as selected below: `events` as jsonb (parsed), the time as a `Date`. */
const WebhookRow = Schema.Struct({
  id: Schema.String,
  projectId: Schema.String,
  url: Schema.String,
  events: Schema.toEncoded(WebhookEvents),
  secret: Schema.String,
  createdAt: Schema.Date
})
type WebhookRow = typeof WebhookRow.Type

/** A row decoded into a `Webhook` (every field checked again), and a webhook encoded into a row. */
const WebhookFromRow = WebhookRow.pipe(
  Schema.decodeTo(
    Webhook,
    SchemaTransformation.transform({
      decode: (row) => ({ ...row, createdAt: row.createdAt.toISOString() }),
      encode: (webhook): WebhookRow => ({ ...webhook, createdAt: new Date(webhook.createdAt) })
    })
  )
)

/** A `webhook_attempts` row as selected below: the event's id as text, the time as a `Date`. */
const AttemptRow = Schema.Struct({
  eventId: Schema.String,
  attempt: Schema.Int,
  status: DeliveryAttemptStatus,
  httpStatus: Schema.NullOr(Schema.Int),
  error: Schema.NullOr(Schema.String),
  at: Schema.Date
})
type AttemptRow = typeof AttemptRow.Type

const DeliveryAttemptFromRow = AttemptRow.pipe(
  Schema.decodeTo(
    DeliveryAttempt,
    SchemaTransformation.transform({
      decode: (row) => ({ ...row, at: row.at.toISOString() }),
      encode: (attempt): AttemptRow => ({ ...attempt, at: new Date(attempt.at) })
    })
  )
)

const WebhookKey = Schema.Struct({ projectId: ProjectId, id: WebhookId })

export const make: Effect.Effect<WebhookRepository["Service"], never, SqlClient.SqlClient> = Effect.gen(
  function* () {
    const sql = yield* SqlClient.SqlClient

    const columns = sql.literal(`id, project_id as "projectId", url, to_jsonb(events) as events, secret,
      created_at as "createdAt"`)

    // The array travels as jsonb (`[]` stays an empty array: it is not every type, as null is).
    const eventsArray = (events: typeof WebhookEvents.Encoded) =>
      events === null
        ? sql`null`
        : sql`array(
            select type from jsonb_array_elements_text(${JSON.stringify(events)}::jsonb)
              with ordinality as listed(type, n)
            order by n)`

    const insert = SqlSchema.findOne({
      Request: WebhookFromRow,
      Result: WebhookFromRow,
      execute: (row) => sql`
        insert into webhooks (id, project_id, url, events, secret, created_at)
        values (${row.id}, ${row.projectId}, ${row.url}, ${eventsArray(row.events)}, ${row.secret},
          ${row.createdAt})
        returning ${columns}`
    })

    const listByProject = SqlSchema.findAll({
      Request: ProjectId,
      Result: WebhookFromRow,
      execute: (projectId) => sql`
        select ${columns} from webhooks where project_id = ${projectId} order by position`
    })

    const find = SqlSchema.findOneOption({
      Request: WebhookKey,
      Result: WebhookFromRow,
      execute: ({ id, projectId }) => sql`
        select ${columns} from webhooks where id = ${id} and project_id = ${projectId}`
    })

    const remove = SqlSchema.findAll({
      Request: WebhookKey,
      Result: Schema.Struct({ id: WebhookId }),
      execute: ({ id, projectId }) => sql`
        delete from webhooks where id = ${id} and project_id = ${projectId} returning id`
    })

    // Newest first: by when they were made, then by when they were recorded (`position`).
    const listAttempts = SqlSchema.findAll({
      Request: Schema.Struct({ ...WebhookKey.fields, limit: Schema.Int }),
      Result: DeliveryAttemptFromRow,
      execute: ({ id, limit, projectId }) => sql`
        select event_id::text as "eventId", attempt, status, http_status as "httpStatus", error, at
        from webhook_attempts
        where webhook_id = ${id}
          and exists (select 1 from webhooks where id = ${id} and project_id = ${projectId})
        order by at desc, position desc
        limit ${limit}`
    })

    return WebhookRepository.of({
      insert: ({ events, projectId, url }, now) =>
        Effect.suspend(() => insert(newWebhook({ projectId, url, events }, now, randomBytes))).pipe(
          storageOperation("WebhookRepository.insert")
        ),
      listByProject: (projectId) =>
        listByProject(projectId).pipe(storageOperation("WebhookRepository.listByProject")),
      find: (projectId, id) => find({ projectId, id }).pipe(storageOperation("WebhookRepository.find")),
      remove: (projectId, id) =>
        remove({ projectId, id }).pipe(
          Effect.map((removed) => removed.length > 0),
          storageOperation("WebhookRepository.remove")
        ),
      listAttempts: (projectId, id, limit) =>
        listAttempts({ projectId, id, limit: Math.max(0, Math.floor(limit)) }).pipe(
          storageOperation("WebhookRepository.listAttempts")
        )
    })
  }
)

export const layer: Layer.Layer<WebhookRepository, never, SqlClient.SqlClient> = Layer.effect(
  WebhookRepository,
  make
)
