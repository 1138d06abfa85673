/**
 * Port: the queue of webhook deliveries. Stores fill it in the transaction of each event they append
 * (one delivery per webhook of the project that listens to the type); the worker claims what is due,
 * under a lease like domain checks, so that several workers share it and a dead worker's deliveries are
 * sent again once its leases expire (at least once). Deliveries to one webhook of one hostname's events
 * go in event order: one waits while an earlier one is pending.
 */
import type { StorageError } from "@petstore/kernel"
import type { Effect } from "effect"
import { Context } from "effect"
import type { CustomDomainLease } from "./CustomDomainRepository.js"
import type { DomainEvent } from "./DomainEvent.js"
import type { DeliveryAttempt, WebhookDelivery, WebhookDeliveryKey } from "./Webhook.js"

/** A leased delivery with what sending it takes: its event and where and how to sign it. */
export interface ClaimedDelivery {
  readonly delivery: WebhookDelivery
  readonly event: DomainEvent
  /** The webhook's URL and signing secret. */
  readonly url: string
  readonly secret: string
}

/** What came of one attempt: the attempt to record and the delivery as it stands after it. */
export interface DeliveryResult {
  readonly delivery: WebhookDelivery
  readonly attempt: DeliveryAttempt
}

export class WebhookDeliveryRepository extends Context.Service<
  WebhookDeliveryRepository,
  {
    /**
     * Leases up to `limit` pending deliveries due at `now` (`nextAttemptAt` passed) that no live lease
     * holds and that no earlier pending delivery (smaller event id) of the same webhook and hostname
     * waits before, oldest due first, to `lease.holder` until `lease.until`.
     */
    readonly claimDue: (
      now: Date,
      limit: number,
      lease: CustomDomainLease
    ) => Effect.Effect<ReadonlyArray<ClaimedDelivery>, StorageError>
    /**
     * Records each attempt and stores its delivery, ending its lease, only while `holder` still holds
     * it; the deliveries stored. One missing from them lost its lease or its webhook was removed.
     */
    readonly complete: (
      results: ReadonlyArray<DeliveryResult>,
      holder: string
    ) => Effect.Effect<ReadonlyArray<WebhookDeliveryKey>, StorageError>
    /** Gives back a lease, so the delivery can be claimed again at once (graceful shutdown). */
    readonly releaseLease: (delivery: WebhookDeliveryKey, holder: string) => Effect.Effect<void, StorageError>
  }
>()("@petstore/custom-domains/WebhookDeliveryRepository") {}
