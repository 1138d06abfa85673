/**
 * WebhookDeliveryRepository on PostgreSQL: the queue `webhook_deliveries`, which every write of
 * domains fills in the statement that appends its events (`events/Outbox`).
 *
 * Claiming is one statement, with the leases of `internal/Leases`: lease the lanes, the rows of
 * enabled webhooks whose lane lease is free and that have a due delivery, oldest due first,
 * `for update skip locked` (concurrent workers skip each other's webhooks), in `webhooks` itself, and
 * lease each lane's oldest due delivery. The lane lease is a column of the locked row, so a worker that waited on the row sees it
 * taken when it rechecks the row (PostgreSQL re-evaluates the locked row's own columns, not a
 * subquery's snapshot): at most one delivery per webhook is ever leased. Only the earliest pending
 * delivery of a webhook and hostname may be claimed (the partial index `webhook_deliveries_order` finds
 * an earlier one): a later event of the hostname waits, leased or not, until the earlier one is
 * delivered or has failed for good. A project's events, and so its deliveries, become visible in id
 * order, so a claim never sees a later delivery without the earlier ones. Each claimed delivery comes
 * with its event, its webhook's URL and secrets (opened), decoded as the domain's.
 *
 * Completing stores the delivery, records its attempt, ends both leases and writes the webhook's
 * health, in one statement, only where `holder` still holds the delivery's lease (the health: also
 * only where the webhook is enabled and its `failing_since` is what the claim saw): a result whose lease
 * was lost (taken over, the webhook removed) records nothing.
 */

import {
  type ClaimedDelivery as ClaimedDeliveryType,
  signingSecretsOf,
  WebhookDeliveryRepository
} from "@petstore/webhooks"
import { Effect, Layer, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { ClaimDueRequest, claimDueRequest, leasesOf } from "../internal/Leases.js"
import { keyText, lastPerKey } from "../internal/RowKeys.js"
import { storageOperation } from "../internal/storageOperation.js"
import { PrivateKeyCipher } from "../PrivateKeyCipher.js"
import {
  ClaimedDeliveryFromRow,
  ClaimedRow,
  DeliveryKey,
  DeliveryResult,
  deliveryLeases,
  laneLeases
} from "./DeliveryRows.js"
import { WebhookRow, webhookColumns, webhookOfRow } from "./WebhookRows.js"

export const make: Effect.Effect<
  WebhookDeliveryRepository["Service"],
  never,
  SqlClient.SqlClient | PrivateKeyCipher
> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const cipher = yield* PrivateKeyCipher
  const deliveries = leasesOf(sql, deliveryLeases)
  const lanes = leasesOf(sql, laneLeases)

  const claimDue = SqlSchema.findAll({
    Request: ClaimDueRequest,
    Result: Schema.Struct({ ...ClaimedRow.fields, ...WebhookRow.fields }),
    execute: (request) => {
      const { lease, now } = request
      return sql`
        with due as (
          select d.webhook_id, d.event_id, d.next_attempt_at from webhook_deliveries as d
          where d.status = 'pending' and d.next_attempt_at <= ${now}
            and ${deliveries.isFree(now, "d")}
            and not exists (
              select 1 from webhook_deliveries as earlier
              where earlier.webhook_id = d.webhook_id and earlier.hostname = d.hostname
                and earlier.status = 'pending' and earlier.event_id < d.event_id)),
        leased_lanes as (${lanes.claimDue(request, {
          due: sql`status = 'enabled' and id in (select webhook_id from due)`,
          order: sql`(select min(due.next_attempt_at) from due where due.webhook_id = webhooks.id), id`,
          returning: sql`id`
        })}),
        picked as (
          select (select due.event_id from due where due.webhook_id = leased_lanes.id
              order by due.next_attempt_at, due.event_id limit 1) as event_id,
            leased_lanes.id as webhook_id
          from leased_lanes),
        leased as (
          update webhook_deliveries set ${deliveries.take(lease)}
          from picked
          where webhook_deliveries.webhook_id = picked.webhook_id
            and webhook_deliveries.event_id = picked.event_id
          returning webhook_deliveries.webhook_id, webhook_deliveries.event_id, webhook_deliveries.hostname,
            webhook_deliveries.attempts, webhook_deliveries.first_attempt_at,
            webhook_deliveries.next_attempt_at, webhook_deliveries.status)
        select ${webhookColumns(sql, "webhook")}, leased.webhook_id as "webhookId",
          leased.event_id::text as "eventId", leased.hostname, leased.attempts,
          leased.first_attempt_at as "firstAttemptAt", leased.next_attempt_at as "nextAttemptAt",
          leased.status as "deliveryStatus", event.type, event.occurred_at as "occurredAt", event.data
        from leased
          join domain_events as event on event.id = leased.event_id
          join webhooks as webhook on webhook.id = leased.webhook_id
        order by leased.next_attempt_at, leased.event_id`
    }
  })

  /**
   * Stores each delivery and ends its lease where `holder` holds it, and records the attempts of
   * those stored, in one statement (in the order given); the keys of those stored come back.
   */
  const complete = SqlSchema.findAll({
    Request: Schema.Struct({ results: Schema.Array(DeliveryResult), holder: Schema.String }),
    Result: DeliveryKey,
    execute: ({ holder, results }) => {
      const rows = results.map(({ attempt, delivery, health }) => ({
        webhookId: delivery.webhookId,
        eventId: delivery.eventId,
        attempts: delivery.attempts,
        firstAttemptAt: delivery.firstAttemptAt,
        nextAttemptAt: delivery.nextAttemptAt,
        status: delivery.status,
        attempt: attempt.attempt,
        attemptStatus: attempt.status,
        httpStatus: attempt.httpStatus,
        error: attempt.error,
        at: attempt.at,
        expectedFailingSince: health.expectedFailingSince,
        failingSince: health.failingSince,
        disabledAt: health.disabled?.at ?? null,
        disabledReason: health.disabled?.reason ?? null
      }))
      return sql`
          with result as (
            select * from rows from (jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as (
                "webhookId" text, "eventId" bigint, attempts integer, "firstAttemptAt" timestamptz,
                "nextAttemptAt" timestamptz, status text, attempt integer, "attemptStatus" text,
                "httpStatus" integer, error text, at timestamptz, "expectedFailingSince" timestamptz,
                "failingSince" timestamptz, "disabledAt" timestamptz, "disabledReason" text))
              with ordinality as result("webhookId", "eventId", attempts, "firstAttemptAt",
                "nextAttemptAt", status, attempt, "attemptStatus", "httpStatus", error, at,
                "expectedFailingSince", "failingSince", "disabledAt", "disabledReason", n)),
          stored as (
            update webhook_deliveries as delivery set
              attempts = result.attempts, first_attempt_at = result."firstAttemptAt",
              next_attempt_at = result."nextAttemptAt", status = result.status,
              ${deliveries.ended}
            from result
            where delivery.webhook_id = result."webhookId" and delivery.event_id = result."eventId"
              and ${deliveries.heldBy("delivery", holder)}
            returning delivery.webhook_id, delivery.event_id),
          recorded as (
            insert into webhook_attempts (webhook_id, event_id, attempt, status, http_status, error, at)
            select result."webhookId", result."eventId", result.attempt, result."attemptStatus",
              result."httpStatus", result.error, result.at
            from result
              join stored on stored.webhook_id = result."webhookId" and stored.event_id = result."eventId"
            order by result.n),
          health as (
            select result."webhookId", result."failingSince", result."disabledAt", result."disabledReason",
              webhook.status = 'enabled'
                and webhook.failing_since is not distinct from result."expectedFailingSince" as applies
            from result
              join stored on stored.webhook_id = result."webhookId" and stored.event_id = result."eventId"
              join webhooks as webhook on webhook.id = result."webhookId"),
          lane as (
            update webhooks as webhook set
              ${lanes.endedIfHeldBy("webhook", holder)},
              failing_since = case when health.applies then health."failingSince" else webhook.failing_since end,
              status = case when health.applies and health."disabledAt" is not null then 'disabled'
                else webhook.status end,
              disabled_at = case when health.applies and health."disabledAt" is not null
                then health."disabledAt" else webhook.disabled_at end,
              disabled_reason = case when health.applies and health."disabledAt" is not null
                then health."disabledReason" else webhook.disabled_reason end
            from health
            where webhook.id = health."webhookId")
          select stored.webhook_id as "webhookId", stored.event_id::text as "eventId"
          from stored join result
            on stored.webhook_id = result."webhookId" and stored.event_id = result."eventId"
          order by result.n`
    }
  })

  const releaseLease = SqlSchema.void({
    Request: Schema.Struct({ ...DeliveryKey.fields, holder: Schema.String }),
    execute: ({ eventId, holder, webhookId }) => sql`
        with released as (${deliveries.release(
          { webhook_id: webhookId, event_id: sql`${eventId}::bigint` },
          holder
        )})
        ${lanes.release({ id: webhookId }, holder)}`
  })

  const decodeClaimed = Schema.decodeUnknownEffect(ClaimedDeliveryFromRow)
  const decodeKey = Schema.decodeUnknownEffect(DeliveryKey)

  return WebhookDeliveryRepository.of({
    claimDue: (now, limit, lease) =>
      claimDue(claimDueRequest(now, limit, lease)).pipe(
        Effect.flatMap((rows) =>
          Effect.forEach(rows, (row) =>
            Effect.gen(function* () {
              const { delivery, event } = yield* decodeClaimed(row)
              const webhook = yield* webhookOfRow(cipher, row)
              return [
                {
                  delivery,
                  event,
                  url: webhook.url,
                  secrets: signingSecretsOf(webhook, now),
                  failingSince: webhook.failingSince
                } satisfies ClaimedDeliveryType
              ]
            }).pipe(
              // A row that cannot be read (a secret sealed with another key, a corrupt row) must not
              // hold the other lanes of the claim: its lease is given back and the others are sent.
              Effect.catch((error) =>
                Effect.as(
                  Effect.andThen(
                    Effect.logWarning(
                      `the claimed delivery to webhook ${row.webhookId} cannot be read`,
                      error
                    ),
                    Effect.ignore(
                      Effect.flatMap(decodeKey({ webhookId: row.webhookId, eventId: row.eventId }), (key) =>
                        releaseLease({ ...key, holder: lease.holder })
                      )
                    )
                  ),
                  []
                )
              )
            )
          )
        ),
        Effect.map((claimed) => claimed.flat()),
        storageOperation("WebhookDeliveryRepository.claimDue")
      ),
    complete: (results, holder) => {
      // The last result for a delivery is the one stored, should a round carry two.
      const latest = lastPerKey(results, ({ delivery }) => keyText(delivery.webhookId, delivery.eventId))
      return (latest.length === 0 ? Effect.succeed([]) : complete({ results: latest, holder })).pipe(
        storageOperation("WebhookDeliveryRepository.complete")
      )
    },
    releaseLease: ({ eventId, webhookId }, holder) =>
      releaseLease({ webhookId, eventId, holder }).pipe(
        storageOperation("WebhookDeliveryRepository.releaseLease")
      )
  })
})

export const layer: Layer.Layer<WebhookDeliveryRepository, never, SqlClient.SqlClient | PrivateKeyCipher> =
  Layer.effect(WebhookDeliveryRepository, make)
