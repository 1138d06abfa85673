/**
 * WebhookDeliveryRepository on PostgreSQL: the queue `webhook_deliveries`, which the domain repository
 * fills in the statement that appends each event (`PgDomainRepository`'s outbox).
 *
 * Claiming is one statement, as for domain checks: select the due, unleased pending rows oldest first
 * `for update skip locked`, and lease them in the same update, so concurrent workers skip each other's
 * rows and never lease one delivery twice. Only the earliest pending delivery of a webhook and hostname
 * may be claimed (the partial index `webhook_deliveries_order` finds an earlier one): a later event of
 * the hostname waits, leased or not, until the earlier one is delivered or has failed for good. A
 * project's events, and so its deliveries, become visible in id order, so a claim never sees a later
 * delivery without the earlier ones. Each claimed delivery comes with its event and its webhook's URL
 * and secret, decoded as the domain's.
 *
 * Completing stores the delivery and records its attempt in one statement, only where `holder` still
 * holds the lease: a result whose lease was lost (taken over, the webhook removed) records nothing.
 */
import {
  CustomDomainResource,
  DeliveryAttempt,
  DomainEvent,
  DomainEventId,
  DomainEventType,
  WebhookDelivery,
  WebhookDeliveryRepository,
  WebhookDeliveryStatus,
  WebhookId,
  WebhookSecret
} from "@petstore/custom-domains"
import { Effect, Layer, Schema, SchemaTransformation } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { storageOperation } from "./internal/storageOperation.js"

/** A claimed delivery's row as selected below: its event's and webhook's columns beside its own. */
const ClaimedRow = Schema.Struct({
  webhookId: Schema.String,
  eventId: Schema.String,
  hostname: Schema.String,
  attempts: Schema.Int,
  firstAttemptAt: Schema.NullOr(Schema.Date),
  nextAttemptAt: Schema.Date,
  status: WebhookDeliveryStatus,
  type: DomainEventType,
  occurredAt: Schema.Date,
  projectId: Schema.String,
  data: Schema.toEncoded(CustomDomainResource),
  url: Schema.String,
  secret: Schema.String
})
type ClaimedRow = typeof ClaimedRow.Type

const ClaimedDelivery = Schema.Struct({
  delivery: WebhookDelivery,
  event: DomainEvent,
  url: Schema.String,
  secret: WebhookSecret
})

const isoOrNull = (date: Date | null): string | null => (date === null ? null : date.toISOString())
const dateOrNull = (iso: string | null): Date | null => (iso === null ? null : new Date(iso))

/** A row decoded into a claimed delivery (every field checked again), and one encoded into a row. */
const ClaimedDeliveryFromRow = ClaimedRow.pipe(
  Schema.decodeTo(
    ClaimedDelivery,
    SchemaTransformation.transform({
      decode: (row) => ({
        delivery: {
          webhookId: row.webhookId,
          eventId: row.eventId,
          hostname: row.hostname,
          attempts: row.attempts,
          firstAttemptAt: isoOrNull(row.firstAttemptAt),
          nextAttemptAt: row.nextAttemptAt.toISOString(),
          status: row.status
        },
        event: {
          id: row.eventId,
          type: row.type,
          occurredAt: row.occurredAt.toISOString(),
          projectId: row.projectId,
          hostname: row.hostname,
          data: row.data
        },
        url: row.url,
        secret: row.secret
      }),
      encode: ({ delivery, event, secret, url }): ClaimedRow => ({
        webhookId: delivery.webhookId,
        eventId: delivery.eventId,
        hostname: delivery.hostname,
        attempts: delivery.attempts,
        firstAttemptAt: dateOrNull(delivery.firstAttemptAt),
        nextAttemptAt: new Date(delivery.nextAttemptAt),
        status: delivery.status,
        type: event.type,
        occurredAt: new Date(event.occurredAt),
        projectId: event.projectId,
        data: event.data,
        url,
        secret
      })
    })
  )
)

const DeliveryKey = Schema.Struct({ webhookId: WebhookId, eventId: DomainEventId })

const Lease = Schema.Struct({ holder: Schema.String, until: Schema.Date })

const DeliveryResult = Schema.Struct({ delivery: WebhookDelivery, attempt: DeliveryAttempt })

// Neither an id has a line break, so the pair's text names one delivery alone.
const keyText = (key: typeof DeliveryKey.Type): string => `${key.webhookId}\n${key.eventId}`

export const make: Effect.Effect<WebhookDeliveryRepository["Service"], never, SqlClient.SqlClient> =
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const claimDue = SqlSchema.findAll({
      Request: Schema.Struct({ now: Schema.Date, limit: Schema.Int, lease: Lease }),
      Result: ClaimedDeliveryFromRow,
      execute: ({ lease, limit, now }) => sql`
        with leased as (
          update webhook_deliveries set lease_holder = ${lease.holder}, lease_until = ${lease.until}
          where (webhook_id, event_id) in (
            select due.webhook_id, due.event_id from webhook_deliveries as due
            where due.status = 'pending' and due.next_attempt_at <= ${now}
              and (due.lease_until is null or due.lease_until <= ${now})
              and not exists (
                select 1 from webhook_deliveries as earlier
                where earlier.webhook_id = due.webhook_id and earlier.hostname = due.hostname
                  and earlier.status = 'pending' and earlier.event_id < due.event_id)
            order by due.next_attempt_at, due.event_id
            limit ${limit}
            for update of due skip locked)
          returning webhook_id, event_id, hostname, attempts, first_attempt_at, next_attempt_at, status)
        select leased.webhook_id as "webhookId", leased.event_id::text as "eventId", leased.hostname,
          leased.attempts, leased.first_attempt_at as "firstAttemptAt",
          leased.next_attempt_at as "nextAttemptAt", leased.status, event.type,
          event.occurred_at as "occurredAt", event.project_id as "projectId", event.data, webhook.url,
          webhook.secret
        from leased
          join domain_events as event on event.id = leased.event_id
          join webhooks as webhook on webhook.id = leased.webhook_id
        order by leased.next_attempt_at, leased.event_id`
    })

    /**
     * Stores each delivery and ends its lease where `holder` holds it, and records the attempts of
     * those stored, in one statement (in the order given); the keys of those stored come back.
     */
    const complete = SqlSchema.findAll({
      Request: Schema.Struct({ results: Schema.Array(DeliveryResult), holder: Schema.String }),
      Result: DeliveryKey,
      execute: ({ holder, results }) => {
        const rows = results.map(({ attempt, delivery }) => ({
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
          at: attempt.at
        }))
        return sql`
          with result as (
            select * from rows from (jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as (
                "webhookId" text, "eventId" bigint, attempts integer, "firstAttemptAt" timestamptz,
                "nextAttemptAt" timestamptz, status text, attempt integer, "attemptStatus" text,
                "httpStatus" integer, error text, at timestamptz))
              with ordinality as result("webhookId", "eventId", attempts, "firstAttemptAt",
                "nextAttemptAt", status, attempt, "attemptStatus", "httpStatus", error, at, n)),
          stored as (
            update webhook_deliveries as delivery set
              attempts = result.attempts, first_attempt_at = result."firstAttemptAt",
              next_attempt_at = result."nextAttemptAt", status = result.status,
              lease_holder = null, lease_until = null
            from result
            where delivery.webhook_id = result."webhookId" and delivery.event_id = result."eventId"
              and delivery.lease_holder = ${holder}
            returning delivery.webhook_id, delivery.event_id),
          recorded as (
            insert into webhook_attempts (webhook_id, event_id, attempt, status, http_status, error, at)
            select result."webhookId", result."eventId", result.attempt, result."attemptStatus",
              result."httpStatus", result.error, result.at
            from result
              join stored on stored.webhook_id = result."webhookId" and stored.event_id = result."eventId"
            order by result.n)
          select stored.webhook_id as "webhookId", stored.event_id::text as "eventId"
          from stored join result
            on stored.webhook_id = result."webhookId" and stored.event_id = result."eventId"
          order by result.n`
      }
    })

    const releaseLease = SqlSchema.void({
      Request: Schema.Struct({ ...DeliveryKey.fields, holder: Schema.String }),
      execute: ({ eventId, holder, webhookId }) => sql`
        update webhook_deliveries set lease_holder = null, lease_until = null
        where webhook_id = ${webhookId} and event_id = ${eventId}::bigint and lease_holder = ${holder}`
    })

    return WebhookDeliveryRepository.of({
      claimDue: (now, limit, lease) =>
        claimDue({ now, limit: Math.max(0, Math.floor(limit)), lease }).pipe(
          storageOperation("WebhookDeliveryRepository.claimDue")
        ),
      complete: (results, holder) => {
        // The last result for a delivery is the one stored, should a round carry two.
        const latest = [...new Map(results.map((result) => [keyText(result.delivery), result])).values()]
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

export const layer: Layer.Layer<WebhookDeliveryRepository, never, SqlClient.SqlClient> = Layer.effect(
  WebhookDeliveryRepository,
  make
)
