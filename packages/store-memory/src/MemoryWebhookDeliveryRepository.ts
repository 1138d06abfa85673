/**
 * WebhookDeliveryRepository in memory: the deliveries the domain repository queues on the table they
 * share with events and webhooks (`MemoryDomainTable`). Every operation, a claim included, reads and
 * writes in one atomic `Ref` update, so concurrent claims never lease one delivery twice. Only the
 * earliest pending delivery of a webhook and hostname may be claimed: a later event of the hostname
 * waits, leased or not, until the earlier one is delivered or has failed for good. A claim takes one
 * delivery per enabled webhook whose lane is free, and leases the lane with it. Results are stored,
 * and their attempts recorded, only while their lease is `holder`'s; a webhook's health only where it
 * is as the claim saw it.
 */

import type { Lease } from "@petstore/kernel"
import {
  type ClaimedDelivery,
  type DeliveryResult,
  signingSecretsOf,
  Webhook,
  type WebhookDeliveryKey,
  WebhookDeliveryRepository,
  type WebhookId
} from "@petstore/webhooks"
import { Effect, HashMap, Layer, Option, Order, Ref } from "effect"
import {
  type DomainTable,
  deliveryKeyOf,
  eventsOf,
  MemoryDomainTable,
  type StoredDelivery
} from "./MemoryDomainTable.js"

/** Event ids spell growing numbers: compared as those numbers. */
const eventNumber = (stored: StoredDelivery): bigint => BigInt(stored.delivery.eventId)

/** Oldest due first; among equally due ones, the earliest event. */
const dueOrder: Order.Order<StoredDelivery> = Order.combine(
  Order.mapInput(Order.Number, (stored: StoredDelivery) => stored.delivery.nextAttemptAt.getTime()),
  Order.mapInput(Order.BigInt, eventNumber)
)

// Neither a webhook id nor a hostname has a line break, so the pair's text names one queue alone.
const queueOf = (stored: StoredDelivery): string =>
  `${stored.delivery.webhookId}\n${stored.delivery.hostname}`

const isLeasedAt = (lease: Option.Option<Lease>, now: number): boolean =>
  Option.exists(lease, (held) => held.until.getTime() > now)

const heldBy = (lease: Option.Option<Lease>, holder: string): boolean =>
  Option.exists(lease, (held) => held.holder === holder)

/** Whether the delivery's webhook is enabled and its lane free at `now`. */
const laneIsFree = (current: DomainTable, webhookId: WebhookId, now: number): boolean =>
  Option.exists(
    HashMap.get(current.webhooks, webhookId),
    ({ lane, webhook }) => webhook.status === "enabled" && !isLeasedAt(lane, now)
  )

/** The pending deliveries a worker may claim at `now`, oldest due first, one per webhook. */
const claimable = (current: DomainTable, now: number): ReadonlyArray<StoredDelivery> => {
  const pending = [...HashMap.values(current.deliveries)].filter(
    ({ delivery }) => delivery.status === "pending"
  )
  // The earliest pending event of each webhook and hostname: the only one its queue may send.
  const heads = new Map<string, bigint>()
  for (const stored of pending) {
    const head = heads.get(queueOf(stored))
    if (head === undefined || eventNumber(stored) < head) heads.set(queueOf(stored), eventNumber(stored))
  }
  const due = pending
    .filter(
      (stored) =>
        heads.get(queueOf(stored)) === eventNumber(stored) &&
        stored.delivery.nextAttemptAt.getTime() <= now &&
        !isLeasedAt(stored.lease, now) &&
        laneIsFree(current, stored.delivery.webhookId, now)
    )
    .sort(dueOrder)
  // Each lane's oldest due delivery, the lanes in the order of those.
  const lanes = new Set<WebhookId>()
  return due.filter((stored) => {
    if (lanes.has(stored.delivery.webhookId)) return false
    lanes.add(stored.delivery.webhookId)
    return true
  })
}

/** `table` with the lane of `webhookId` leased, or given back (`lease` none) where `holder` held it. */
const withLane = (
  current: DomainTable,
  webhookId: WebhookId,
  lease: Option.Option<Lease>,
  holder?: string
): DomainTable => ({
  ...current,
  webhooks: HashMap.modify(current.webhooks, webhookId, (stored) =>
    holder === undefined || heldBy(stored.lane, holder) ? { ...stored, lane: lease } : stored
  )
})

/** `table` with the webhook's health after a result, where it is enabled and as the claim saw it. */
const withHealth = (current: DomainTable, result: DeliveryResult): DomainTable => ({
  ...current,
  webhooks: HashMap.modify(current.webhooks, result.delivery.webhookId, (stored) => {
    const { webhook } = stored
    const expected = result.health.expectedFailingSince?.getTime() ?? null
    if (webhook.status !== "enabled" || (webhook.failingSince?.getTime() ?? null) !== expected) return stored
    const { disabled, failingSince } = result.health
    return {
      ...stored,
      webhook: new Webhook({
        ...webhook,
        failingSince,
        ...(disabled === null
          ? {}
          : { status: "disabled", disabledAt: disabled.at, disabledReason: disabled.reason })
      })
    }
  })
})

/** A delivery with its event and its webhook, as they are in the table (none if either is gone). */
const withEventAndWebhook = (
  current: DomainTable,
  stored: StoredDelivery,
  now: Date
): Option.Option<ClaimedDelivery> =>
  Option.flatMap(HashMap.get(current.webhooks, stored.delivery.webhookId), ({ webhook }) =>
    Option.map(
      Option.fromNullishOr(
        eventsOf(current, webhook.projectId).find((event) => event.id === stored.delivery.eventId)
      ),
      (event): ClaimedDelivery => ({
        delivery: stored.delivery,
        event,
        url: webhook.url,
        secrets: signingSecretsOf(webhook, now),
        failingSince: webhook.failingSince
      })
    )
  )

export const make: Effect.Effect<WebhookDeliveryRepository["Service"], never, MemoryDomainTable> = Effect.gen(
  function* () {
    const table = yield* MemoryDomainTable
    return WebhookDeliveryRepository.of({
      claimDue: (now: Date, limit: number, lease: Lease) =>
        Ref.modify(table, (current): [ReadonlyArray<ClaimedDelivery>, DomainTable] => {
          const claimed = claimable(current, now.getTime()).slice(0, Math.max(0, Math.floor(limit)))
          let next = current
          for (const stored of claimed) {
            const deliveries = HashMap.set(next.deliveries, deliveryKeyOf(stored.delivery), {
              ...stored,
              lease: Option.some(lease)
            })
            next = withLane({ ...next, deliveries }, stored.delivery.webhookId, Option.some(lease))
          }
          return [
            claimed.flatMap((stored) => Option.toArray(withEventAndWebhook(current, stored, now))),
            next
          ]
        }),
      complete: (results: ReadonlyArray<DeliveryResult>, holder: string) =>
        Ref.modify(table, (current): [ReadonlyArray<WebhookDeliveryKey>, DomainTable] => {
          // The last result for a delivery is the one stored, should a round carry two.
          const latest = [
            ...new Map(results.map((result) => [deliveryKeyOf(result.delivery), result])).values()
          ]
          const stored: Array<WebhookDeliveryKey> = []
          let next = current
          for (const result of latest) {
            const { attempt, delivery } = result
            const key = deliveryKeyOf(delivery)
            const found = HashMap.get(next.deliveries, key)
            if (Option.isNone(found) || !heldBy(found.value.lease, holder)) continue
            next = {
              ...next,
              nextAttemptPosition: next.nextAttemptPosition + 1,
              deliveries: HashMap.set(next.deliveries, key, {
                delivery,
                lease: Option.none(),
                attempts: [...found.value.attempts, { attempt, position: next.nextAttemptPosition }]
              })
            }
            next = withLane(withHealth(next, result), delivery.webhookId, Option.none(), holder)
            stored.push({ webhookId: delivery.webhookId, eventId: delivery.eventId })
          }
          return [stored, next]
        }),
      releaseLease: (key, holder) =>
        Ref.update(table, (current) =>
          withLane(
            {
              ...current,
              deliveries: HashMap.modify(current.deliveries, deliveryKeyOf(key), (stored) =>
                heldBy(stored.lease, holder) ? { ...stored, lease: Option.none() } : stored
              )
            },
            key.webhookId,
            Option.none(),
            holder
          )
        )
    })
  }
)

export const layer: Layer.Layer<WebhookDeliveryRepository, never, MemoryDomainTable> = Layer.effect(
  WebhookDeliveryRepository,
  make
)
