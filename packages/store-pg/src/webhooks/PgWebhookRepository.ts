/**
 * WebhookRepository on PostgreSQL: `webhooks` keeps a project's webhooks (listed in the order they
 * were stored, `position`), `webhook_attempts` the worker's attempts at their deliveries. A new
 * webhook's id and secret are made here from `node:crypto` (SQL's `random()` is not a secure source),
 * spelt by the domain. Removing a webhook removes its deliveries and their attempts with it (the
 * references cascade), so a worker's late result for one finds nothing to store.
 *
 * `events` is a `text[]` column, read back as jsonb, so that the server and the embedded PGlite hand
 * over the same array; every row is decoded into a `Webhook` or a `DeliveryAttempt` again. Secrets are
 * stored encrypted (`internal/webhookSecrets`), opened as a row is read: no statement, and so no WAL
 * record, ever carries one in plain text. A rotation reads the webhook under a row lock and writes
 * both secrets in the same transaction. An insert counts the project's webhooks and adds its own in
 * one transaction under an advisory lock of the project's, taken first, as projects are counted per
 * account: two creations at the limit are counted one after the other.
 */
import { randomBytes } from "node:crypto"
import { limitReached } from "@petstore/kernel"
import { ProjectId } from "@petstore/projects"
import {
  DeliveryAttempt,
  DeliveryAttemptStatus,
  enabledWebhook,
  newWebhook,
  rotatedWebhook,
  type Webhook,
  type WebhookEvents,
  WebhookId,
  WebhookRepository
} from "@petstore/webhooks"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { inLockedTransaction, LockSpace } from "../internal/AdvisoryLocks.js"
import { IsoFromDate } from "../internal/Instants.js"
import { rowLimit } from "../internal/Paging.js"
import { storageOperation } from "../internal/storageOperation.js"
import { PrivateKeyCipher } from "../PrivateKeyCipher.js"
import { rowOfWebhook, WebhookRow, webhookColumns, webhookOfRow } from "./WebhookRows.js"

/** A `webhook_attempts` row as selected below (the event's id as text), decoded into a `DeliveryAttempt`. */
const DeliveryAttemptFromRow = Schema.Struct({
  eventId: Schema.String,
  attempt: Schema.Int,
  status: DeliveryAttemptStatus,
  httpStatus: Schema.NullOr(Schema.Int),
  error: Schema.NullOr(Schema.String),
  at: IsoFromDate
}).pipe(Schema.decodeTo(DeliveryAttempt))

const WebhookKey = Schema.Struct({ projectId: ProjectId, id: WebhookId })

export const make: Effect.Effect<
  WebhookRepository["Service"],
  never,
  SqlClient.SqlClient | PrivateKeyCipher
> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const cipher = yield* PrivateKeyCipher

  const columns = webhookColumns(sql, "webhooks")

  // The array travels as jsonb (`[]` stays an empty array: it is not every type, as null is).
  const eventsArray = (events: typeof WebhookEvents.Encoded) =>
    events === null
      ? sql`null`
      : sql`array(
          select type from jsonb_array_elements_text(${JSON.stringify(events)}::jsonb)
            with ordinality as listed(type, n)
          order by n)`

  const opened = (rows: ReadonlyArray<WebhookRow>) => Effect.forEach(rows, (row) => webhookOfRow(cipher, row))
  const openedOne = (rows: ReadonlyArray<WebhookRow>) =>
    Effect.map(opened(rows.slice(0, 1)), (webhooks) => Option.fromNullishOr(webhooks[0]))

  const insertBelow = SqlSchema.findAll({
    Request: Schema.Struct({ row: WebhookRow, maxPerProject: Schema.Int }),
    Result: WebhookRow,
    execute: ({ maxPerProject, row }) => sql`
      insert into webhooks (id, project_id, url, events, secret, created_at)
      select ${row.id}, ${row.projectId}, ${row.url}, ${eventsArray(row.events)}, ${row.secret},
        ${row.createdAt}
      where (select count(*) from webhooks where project_id = ${row.projectId}) < ${maxPerProject}
      returning ${columns}`
  })

  /** Counts the project's webhooks and adds this one below `maxPerProject`, under the project's lock. */
  const insert = (webhook: Webhook, maxPerProject: number) =>
    Effect.gen(function* () {
      const row = yield* rowOfWebhook(cipher, webhook)
      const inserted = yield* inLockedTransaction(
        sql,
        LockSpace.projectWebhooks,
        row.projectId
      )(insertBelow({ row, maxPerProject }))
      return yield* openedOne(inserted)
    })

  const listByProject = SqlSchema.findAll({
    Request: ProjectId,
    Result: WebhookRow,
    execute: (projectId) => sql`
      select ${columns} from webhooks where project_id = ${projectId} order by position`
  })

  const find = SqlSchema.findAll({
    Request: WebhookKey,
    Result: WebhookRow,
    execute: ({ id, projectId }) => sql`
      select ${columns} from webhooks where id = ${id} and project_id = ${projectId}`
  })

  const findForUpdate = SqlSchema.findAll({
    Request: WebhookKey,
    Result: WebhookRow,
    execute: ({ id, projectId }) => sql`
      select ${columns} from webhooks where id = ${id} and project_id = ${projectId} for update`
  })

  const enable = SqlSchema.findAll({
    Request: WebhookKey,
    Result: WebhookRow,
    execute: ({ id, projectId }) => sql`
      update webhooks set status = 'enabled', disabled_at = null, disabled_reason = null,
        failing_since = null
      where id = ${id} and project_id = ${projectId}
      returning ${columns}`
  })

  const storeSecrets = (webhook: Webhook) =>
    Effect.flatMap(rowOfWebhook(cipher, webhook), (row) =>
      SqlSchema.findAll({
        Request: Schema.Void,
        Result: WebhookRow,
        execute: () => sql`
          update webhooks set secret = ${row.secret}, previous_secret = ${row.previousSecret},
            previous_secret_until = ${row.previousSecretUntil}
          where id = ${row.id} and project_id = ${row.projectId}
          returning ${columns}`
      })(undefined)
    )

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
    insert: ({ events, projectId, url }, now, maxPerProject) =>
      Effect.suspend(() =>
        insert(newWebhook({ projectId, url, events }, now, randomBytes), maxPerProject)
      ).pipe(
        storageOperation("WebhookRepository.insert"),
        Effect.flatMap(
          Option.match({
            onNone: () => Effect.fail(limitReached("webhooksPerProject", maxPerProject)),
            onSome: Effect.succeed
          })
        )
      ),
    listByProject: (projectId) =>
      listByProject(projectId).pipe(
        Effect.flatMap(opened),
        storageOperation("WebhookRepository.listByProject")
      ),
    find: (projectId, id) =>
      find({ projectId, id }).pipe(Effect.flatMap(openedOne), storageOperation("WebhookRepository.find")),
    enable: (projectId, id) =>
      enable({ projectId, id }).pipe(
        Effect.flatMap(openedOne),
        Effect.map(Option.map(enabledWebhook)),
        storageOperation("WebhookRepository.enable")
      ),
    rotateSecret: (projectId, id, now) =>
      Effect.gen(function* () {
        const found = yield* Effect.flatMap(findForUpdate({ projectId, id }), openedOne)
        if (Option.isNone(found)) return Option.none()
        return yield* Effect.flatMap(storeSecrets(rotatedWebhook(found.value, now, randomBytes)), openedOne)
      }).pipe(sql.withTransaction, storageOperation("WebhookRepository.rotateSecret")),
    remove: (projectId, id) =>
      remove({ projectId, id }).pipe(
        Effect.map((removed) => removed.length > 0),
        storageOperation("WebhookRepository.remove")
      ),
    listAttempts: (projectId, id, limit) =>
      listAttempts({ projectId, id, limit: rowLimit(limit) }).pipe(
        storageOperation("WebhookRepository.listAttempts")
      )
  })
})

export const layer: Layer.Layer<WebhookRepository, never, SqlClient.SqlClient | PrivateKeyCipher> =
  Layer.effect(WebhookRepository, make)
