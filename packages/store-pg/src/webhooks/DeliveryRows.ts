/**
 * The rows of the delivery queue as the delivery round reads and writes them: a claimed delivery
 * (its event's columns beside its own) decoded into the delivery and its event, every field checked
 * again; a delivery's key; a result to store (the delivery, its attempt, the webhook's health); and
 * where deliveries and their webhooks' lanes keep their leases.
 */
import { CustomDomainResource } from "@petstore/domains"
import { DomainEvent, DomainEventId, DomainEventType } from "@petstore/events"
import { DeliveryAttempt, WebhookDelivery, WebhookDeliveryStatus, WebhookId } from "@petstore/webhooks"
import { Schema, SchemaTransformation } from "effect"
import { dateFromIso, isoText } from "../internal/Instants.js"
import { type LeasedTable, leaseColumns } from "../internal/Leases.js"

/** A claimed delivery's row as the claim selects it: its event's and webhook's columns beside its own. */
export const ClaimedRow = Schema.Struct({
  webhookId: Schema.String,
  eventId: Schema.String,
  hostname: Schema.String,
  attempts: Schema.Int,
  firstAttemptAt: Schema.NullOr(Schema.Date),
  nextAttemptAt: Schema.Date,
  deliveryStatus: WebhookDeliveryStatus,
  type: DomainEventType,
  occurredAt: Schema.Date,
  projectId: Schema.String,
  data: Schema.toEncoded(CustomDomainResource)
})
export type ClaimedRow = typeof ClaimedRow.Type

const ClaimedDelivery = Schema.Struct({ delivery: WebhookDelivery, event: DomainEvent })

/** A row decoded into a claimed delivery (every field checked again), and one encoded into a row. */
export const ClaimedDeliveryFromRow = ClaimedRow.pipe(
  Schema.decodeTo(
    ClaimedDelivery,
    SchemaTransformation.transform({
      decode: (row) => ({
        delivery: {
          webhookId: row.webhookId,
          eventId: row.eventId,
          hostname: row.hostname,
          attempts: row.attempts,
          firstAttemptAt: isoText(row.firstAttemptAt),
          nextAttemptAt: isoText(row.nextAttemptAt),
          status: row.deliveryStatus
        },
        event: {
          id: row.eventId,
          type: row.type,
          occurredAt: isoText(row.occurredAt),
          projectId: row.projectId,
          hostname: row.hostname,
          data: row.data
        }
      }),
      encode: ({ delivery, event }): ClaimedRow => ({
        webhookId: delivery.webhookId,
        eventId: delivery.eventId,
        hostname: delivery.hostname,
        attempts: delivery.attempts,
        firstAttemptAt: dateFromIso(delivery.firstAttemptAt),
        nextAttemptAt: dateFromIso(delivery.nextAttemptAt),
        deliveryStatus: delivery.status,
        type: event.type,
        occurredAt: dateFromIso(event.occurredAt),
        projectId: event.projectId,
        data: event.data
      })
    })
  )
)

export const DeliveryKey = Schema.Struct({ webhookId: WebhookId, eventId: DomainEventId })

/** Where deliveries keep the lease of the worker sending one. */
export const deliveryLeases: LeasedTable<"webhook_id" | "event_id"> = {
  table: "webhook_deliveries",
  key: ["webhook_id", "event_id"],
  ...leaseColumns
}

/** Where webhooks keep the lease of their lane: at most one delivery of a webhook is out at a time. */
export const laneLeases: LeasedTable<"id"> = {
  table: "webhooks",
  key: ["id"],
  holder: "lane_holder",
  until: "lane_until"
}

const HealthChange = Schema.Struct({
  expectedFailingSince: Schema.NullOr(Schema.Date),
  failingSince: Schema.NullOr(Schema.Date),
  disabled: Schema.NullOr(Schema.Struct({ at: Schema.Date, reason: Schema.String }))
})

export const DeliveryResult = Schema.Struct({
  delivery: WebhookDelivery,
  attempt: DeliveryAttempt,
  health: HealthChange
})
