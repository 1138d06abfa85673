/**
 * Port: the queue of webhook deliveries. Stores fill it in the transaction of each event they append
 * (one delivery per webhook of the project that listens to the type); the worker claims what is due,
 * under a lease like domain checks, so that several workers share it and a dead worker's deliveries are
 * sent again once its leases expire (at least once). Deliveries to one webhook of one hostname's events
 * go in event order: one waits while an earlier one is pending.
 *
 * Each webhook is a lane: a claim leases the webhook itself with its delivery, and a webhook whose
 * lane is leased is not claimed from again until the lease ends (its result stored, given back, or
 * expired). So at most one delivery per webhook is in flight across every worker, and a slow receiver
 * holds only its own lane; the worker claims for the other lanes meanwhile.
 */

import type { DomainEvent } from "@petstore/events"
import type { Lease, StorageError } from "@petstore/kernel"
import type { Effect } from "effect"
import { Context } from "effect"
import type { DeliveryAttempt, WebhookDelivery, WebhookDeliveryKey } from "./Webhook.js"
import type { WebhookHealthChange } from "./WebhookDisabling.js"

/** A leased delivery with what sending it takes: its event and where and how to sign it. */
export interface ClaimedDelivery {
  readonly delivery: WebhookDelivery
  readonly event: DomainEvent
  /** The webhook's URL. */
  readonly url: string
  /** The secrets that sign it at the claim's `now`, the current one first (`signingSecretsOf`). */
  readonly secrets: ReadonlyArray<string>
  /** The webhook's `failingSince` when claimed. */
  readonly failingSince: Date | null
}

/** What came of one attempt: the attempt to record, the delivery as it stands after it, and its webhook's health. */
export interface DeliveryResult {
  readonly delivery: WebhookDelivery
  readonly attempt: DeliveryAttempt
  readonly health: WebhookHealthChange
}

export class WebhookDeliveryRepository extends Context.Service<
  WebhookDeliveryRepository,
  {
    /**
     * Leases up to `limit` pending deliveries due at `now` (`nextAttemptAt` passed), at most one per
     * webhook, each with its webhook's lane, to `lease.holder` until `lease.until`: of enabled webhooks
     * whose lane no live lease holds, the oldest due delivery that no earlier pending delivery (smaller
     * event id) of the same webhook and hostname waits before; the lanes oldest due first.
     */
    readonly claimDue: (
      now: Date,
      limit: number,
      lease: Lease
    ) => Effect.Effect<ReadonlyArray<ClaimedDelivery>, StorageError>
    /**
     * Records each attempt and stores its delivery, ending its lease and its lane's, only while
     * `holder` still holds it; the deliveries stored. One missing from them lost its lease or its
     * webhook was removed. The webhook's health is written only where its `failingSince` is still the
     * result's `expectedFailingSince` and it is enabled (an owner who enabled it meanwhile wins).
     */
    readonly complete: (
      results: ReadonlyArray<DeliveryResult>,
      holder: string
    ) => Effect.Effect<ReadonlyArray<WebhookDeliveryKey>, StorageError>
    /** Gives back a lease and its lane, so the delivery can be claimed again at once (graceful shutdown). */
    readonly releaseLease: (delivery: WebhookDeliveryKey, holder: string) => Effect.Effect<void, StorageError>
  }
>()("@petstore/webhooks/WebhookDeliveryRepository") {}
