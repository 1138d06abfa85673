/**
 * The custom domains of the in-memory store and the events of their changes (the outbox), with the
 * webhooks those events are owed to and their deliveries, and the claims, in one `Ref`: a change, its
 * events and their deliveries are one atomic update, so no reader ever sees the one without the
 * others, a claim's proof is stored with the domains it takes in one, and a certificate is kept only
 * while the domain it was issued for is as it was. Shared by the domain
 * repository, which writes domains and events (and claims with them); the claim repository; the event
 * repository, which reads and forgets events (their deliveries with them); and the webhook
 * repositories.
 *
 * Each event appended is owed to every webhook of its project stored by then that listens to its
 * type (`events` null: every type): a delivery due when the event occurred. A delivery keeps its lease
 * and the attempts recorded at it, which go with it (its webhook removed, its event forgotten).
 */

import type { StoredCertificate } from "@petstore/certificates"
import type { CustomDomain, CustomDomainKey } from "@petstore/domains"
import { DomainEvent, DomainEventId, domainEventTypes } from "@petstore/events"
import type { Lease } from "@petstore/kernel"
import type { Claim } from "@petstore/ownership"
import type { ProjectId } from "@petstore/projects"
import {
  type DeliveryAttempt,
  type Webhook,
  WebhookDelivery,
  type WebhookDeliveryKey,
  type WebhookId
} from "@petstore/webhooks"
import { Context, HashMap, Layer, Option, Ref } from "effect"

export interface StoredDomain {
  readonly domain: CustomDomain
  /** Insertion order, for listing. */
  readonly position: number
  readonly lease: Option.Option<Lease>
}

export interface StoredWebhook {
  readonly webhook: Webhook
  /** Insertion order, for listing. */
  readonly position: number
  /** The lease on the webhook's lane: its one delivery in flight. */
  readonly lane: Option.Option<Lease>
}

export interface RecordedAttempt {
  readonly attempt: DeliveryAttempt
  /** The order attempts were recorded in, across the store: the newest of equal times is the last. */
  readonly position: number
}

export interface StoredDelivery {
  readonly delivery: WebhookDelivery
  readonly lease: Option.Option<Lease>
  /** Oldest first. */
  readonly attempts: ReadonlyArray<RecordedAttempt>
}

export interface StoredClaim {
  readonly claim: Claim
  /** Insertion order, for listing. */
  readonly position: number
  readonly lease: Option.Option<Lease>
}

export interface DomainTable {
  readonly nextPosition: number
  readonly domains: HashMap.HashMap<string, StoredDomain>
  /** The number the next event's id spells. */
  readonly nextEventNumber: number
  /** Each project's events, in the order they were stored (ascending id). */
  readonly events: HashMap.HashMap<ProjectId, ReadonlyArray<DomainEvent>>
  readonly nextWebhookPosition: number
  readonly webhooks: HashMap.HashMap<WebhookId, StoredWebhook>
  /** Keyed by `deliveryKeyOf`. */
  readonly deliveries: HashMap.HashMap<string, StoredDelivery>
  readonly nextAttemptPosition: number
  readonly nextClaimPosition: number
  /** Keyed by `claimKeyOf`. */
  readonly claims: HashMap.HashMap<string, StoredClaim>
  /** By hostname: a certificate is kept only for a verified domain as it was issued for (see `MemoryCertificateStore`). */
  readonly certificates: HashMap.HashMap<string, StoredCertificate>
}

export class MemoryDomainTable extends Context.Service<MemoryDomainTable, Ref.Ref<DomainTable>>()(
  "@petstore/store-memory/MemoryDomainTable"
) {}

export const layer: Layer.Layer<MemoryDomainTable> = Layer.effect(
  MemoryDomainTable,
  Ref.make<DomainTable>({
    nextPosition: 0,
    domains: HashMap.empty(),
    nextEventNumber: 1,
    events: HashMap.empty(),
    nextWebhookPosition: 0,
    webhooks: HashMap.empty(),
    deliveries: HashMap.empty(),
    nextAttemptPosition: 0,
    nextClaimPosition: 0,
    claims: HashMap.empty(),
    certificates: HashMap.empty()
  })
)

// Neither a project id nor a hostname has a line break, so the pair's text names it alone.
export const keyOf = (key: CustomDomainKey): string => `${key.projectId}\n${key.hostname}`

// Neither an account name nor a DNS name has a line break, so the pair's text names a claim alone.
export const claimKeyOf = (claim: Pick<Claim, "account" | "apex">): string =>
  `${claim.account}\n${claim.apex}`

// Neither id has a line break, so the pair's text names one delivery alone.
export const deliveryKeyOf = (key: WebhookDeliveryKey): string => `${key.webhookId}\n${key.eventId}`

/** A project's webhooks, oldest first. */
export const webhooksOf = (table: DomainTable, projectId: ProjectId): ReadonlyArray<StoredWebhook> =>
  [...HashMap.values(table.webhooks)]
    .filter((stored) => stored.webhook.projectId === projectId)
    .sort((a, b) => a.position - b.position)

/** A project's events, oldest first. */
export const eventsOf = (table: DomainTable, projectId: ProjectId): ReadonlyArray<DomainEvent> =>
  Option.getOrElse(HashMap.get(table.events, projectId), () => [])

/**
 * `table` with the events of a domain's change from `before` to `after` appended (`before` undefined:
 * added; `after` undefined: removed), occurred at `occurredAt`. `data` is the domain after the change,
 * or as it was for a removal; the event keeps its public fields only.
 */
export const withEventsOf = (
  table: DomainTable,
  before: CustomDomain | undefined,
  after: CustomDomain | undefined,
  occurredAt: Date
): DomainTable => {
  const domain = after ?? before
  const types = domainEventTypes(before, after)
  if (domain === undefined || types.length === 0) return table
  const appended = types.map(
    (type, n) =>
      new DomainEvent({
        id: DomainEventId.make(String(table.nextEventNumber + n)),
        type,
        occurredAt,
        projectId: domain.projectId,
        hostname: domain.hostname,
        data: domain
      })
  )
  const listeners = webhooksOf(table, domain.projectId)
  const deliveries = appended.reduce(
    (queued, event) =>
      listeners
        .filter(
          ({ webhook }) =>
            webhook.status === "enabled" && (webhook.events === null || webhook.events.includes(event.type))
        )
        .reduce((more, { webhook }) => {
          const delivery = new WebhookDelivery({
            webhookId: webhook.id,
            eventId: event.id,
            hostname: event.hostname,
            attempts: 0,
            firstAttemptAt: null,
            nextAttemptAt: event.occurredAt,
            status: "pending"
          })
          return HashMap.set(more, deliveryKeyOf(delivery), { delivery, lease: Option.none(), attempts: [] })
        }, queued),
    table.deliveries
  )
  return {
    ...table,
    nextEventNumber: table.nextEventNumber + appended.length,
    events: HashMap.set(table.events, domain.projectId, [...eventsOf(table, domain.projectId), ...appended]),
    deliveries
  }
}
