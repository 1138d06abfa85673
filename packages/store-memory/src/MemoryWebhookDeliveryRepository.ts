/**
 * WebhookDeliveryRepository in memory: the deliveries the domain repository queues on the table they
 * share with events and webhooks (`MemoryDomainTable`). Every operation, a claim included, reads and
 * writes in one atomic `Ref` update, so concurrent claims never lease one delivery twice. Only the
 * earliest pending delivery of a webhook and hostname may be claimed: a later event of the hostname
 * waits, leased or not, until the earlier one is delivered or has failed for good. Results are stored,
 * and their attempts recorded, only while their lease is `holder`'s.
 */
import {
  type ClaimedDelivery,
  type CustomDomainLease,
  type DeliveryResult,
  type WebhookDeliveryKey,
  WebhookDeliveryRepository
} from "@petstore/custom-domains"
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

const isLeasedAt = (stored: StoredDelivery, now: number): boolean =>
  Option.exists(stored.lease, (lease) => lease.until.getTime() > now)

const heldBy = (stored: StoredDelivery, holder: string): boolean =>
  Option.exists(stored.lease, (lease) => lease.holder === holder)

/** The pending deliveries a worker may claim at `now`, oldest due first. */
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
  return pending
    .filter(
      (stored) =>
        heads.get(queueOf(stored)) === eventNumber(stored) &&
        stored.delivery.nextAttemptAt.getTime() <= now &&
        !isLeasedAt(stored, now)
    )
    .sort(dueOrder)
}

/** A delivery with its event and its webhook, as they are in the table (none if either is gone). */
const withEventAndWebhook = (current: DomainTable, stored: StoredDelivery): Option.Option<ClaimedDelivery> =>
  Option.flatMap(HashMap.get(current.webhooks, stored.delivery.webhookId), ({ webhook }) =>
    Option.map(
      Option.fromNullishOr(
        eventsOf(current, webhook.projectId).find((event) => event.id === stored.delivery.eventId)
      ),
      (event): ClaimedDelivery => ({
        delivery: stored.delivery,
        event,
        url: webhook.url,
        secret: webhook.secret
      })
    )
  )

export const make: Effect.Effect<WebhookDeliveryRepository["Service"], never, MemoryDomainTable> = Effect.gen(
  function* () {
    const table = yield* MemoryDomainTable
    return WebhookDeliveryRepository.of({
      claimDue: (now: Date, limit: number, lease: CustomDomainLease) =>
        Ref.modify(table, (current): [ReadonlyArray<ClaimedDelivery>, DomainTable] => {
          const claimed = claimable(current, now.getTime()).slice(0, Math.max(0, Math.floor(limit)))
          const deliveries = claimed.reduce(
            (leased, stored) =>
              HashMap.set(leased, deliveryKeyOf(stored.delivery), { ...stored, lease: Option.some(lease) }),
            current.deliveries
          )
          return [
            claimed.flatMap((stored) => Option.toArray(withEventAndWebhook(current, stored))),
            { ...current, deliveries }
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
          for (const { attempt, delivery } of latest) {
            const key = deliveryKeyOf(delivery)
            const found = HashMap.get(next.deliveries, key)
            if (Option.isNone(found) || !heldBy(found.value, holder)) continue
            next = {
              ...next,
              nextAttemptPosition: next.nextAttemptPosition + 1,
              deliveries: HashMap.set(next.deliveries, key, {
                delivery,
                lease: Option.none(),
                attempts: [...found.value.attempts, { attempt, position: next.nextAttemptPosition }]
              })
            }
            stored.push({ webhookId: delivery.webhookId, eventId: delivery.eventId })
          }
          return [stored, next]
        }),
      releaseLease: (key, holder) =>
        Ref.update(table, (current) => ({
          ...current,
          deliveries: HashMap.modify(current.deliveries, deliveryKeyOf(key), (stored) =>
            heldBy(stored, holder) ? { ...stored, lease: Option.none() } : stored
          )
        }))
    })
  }
)

export const layer: Layer.Layer<WebhookDeliveryRepository, never, MemoryDomainTable> = Layer.effect(
  WebhookDeliveryRepository,
  make
)
