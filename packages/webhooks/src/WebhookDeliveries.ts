/**
 * The worker's webhook deliveries, one delivery at a time: claim what is due (at most one delivery per
 * webhook, with its lane), send each on its own, turn what came of it into an attempt, the delivery's
 * next state (the retry rule) and its webhook's health (the disabling rule), and store that alone,
 * only while its lease still holds. Nothing waits for another delivery: a slow receiver holds its own
 * lane and nothing else (contract section 9). A worker stopped or killed mid-send stores nothing of it:
 * the lease comes back (given back, or expired) and the delivery is sent again, with the same
 * `webhook-id`, so receivers get each event at least once. How often claims run, and how many sends a
 * process keeps in flight, is the application's.
 */

import { DomainEvent } from "@petstore/events"
import type { DueCheckRound } from "@petstore/kernel"
import { Clock, Duration, Effect, Option, Random, Schema } from "effect"
import { DeliveryAttempt, type DeliveryFailureReason, httpFailureReason, WebhookDelivery } from "./Webhook.js"
import {
  type ClaimedDelivery,
  type DeliveryResult,
  WebhookDeliveryRepository
} from "./WebhookDeliveryRepository.js"
import { healthAfterAttempt } from "./WebhookDisabling.js"
import { nextWebhookAttemptAt } from "./WebhookRetry.js"
import type { SendOutcome } from "./WebhookSender.js"
import { WebhookSender } from "./WebhookSender.js"

export interface DeliveryOptions {
  /** Who holds the leases taken (the process). */
  readonly holder: string
  /** How long a claimed delivery and its lane are leased: longer than one send may take. */
  readonly lease: Duration.Input
  /** `PETSTORE_WEBHOOK_RETRY_BASE`: the wait after a first failed attempt. */
  readonly retryBase: Duration.Input
  /** `PETSTORE_WEBHOOK_DISABLE_AFTER`: how long every delivery may fail before the webhook is disabled. */
  readonly disableAfter: Duration.Input
}

/** Why an outcome is a failure, as the generic reason recorded; null when it was delivered. */
export const failureReasonOf = (outcome: SendOutcome): DeliveryFailureReason | null => {
  switch (outcome._tag) {
    case "Delivered":
      return null
    case "Rejected":
      return httpFailureReason(outcome.status)
    case "Unreachable":
      return outcome.reason
  }
}

export interface OutcomeRules {
  /** The retry base, and a draw in [0, 1) for its jitter. */
  readonly base: Duration.Input
  readonly random: number
  /** The webhook's `failingSince` when the delivery was claimed, and how long failures may last. */
  readonly failingSince: Date | null
  readonly disableAfter: Duration.Input
}

/**
 * The attempt that `outcome` was, started at `at`, the delivery after it and its webhook's health:
 * delivered on a 2xx; otherwise retried by the retry rule, or failed once its 24 hours are over. A
 * refused address is retried too: names change, and a retry opens no connection until they do.
 */
export const recordOutcome = (
  delivery: WebhookDelivery,
  outcome: SendOutcome,
  at: Date,
  rules: OutcomeRules
): DeliveryResult => {
  const attempt = delivery.attempts + 1
  const firstAttemptAt = delivery.firstAttemptAt ?? at
  const httpStatus = outcome._tag === "Unreachable" ? null : outcome.status
  const failure = failureReasonOf(outcome)
  const health = healthAfterAttempt(rules.failingSince, failure, at, rules.disableAfter)
  if (failure === null) {
    return {
      delivery: new WebhookDelivery({ ...delivery, attempts: attempt, firstAttemptAt, status: "delivered" }),
      attempt: new DeliveryAttempt({
        eventId: delivery.eventId,
        attempt,
        status: "delivered",
        httpStatus,
        error: null,
        at
      }),
      health
    }
  }
  const next = nextWebhookAttemptAt({
    base: rules.base,
    attempt,
    attemptedAt: at,
    firstAttemptAt,
    random: rules.random
  })
  return {
    delivery: new WebhookDelivery({
      ...delivery,
      attempts: attempt,
      firstAttemptAt,
      nextAttemptAt: Option.getOrElse(next, () => delivery.nextAttemptAt),
      status: Option.isSome(next) ? "pending" : "failed"
    }),
    attempt: new DeliveryAttempt({
      eventId: delivery.eventId,
      attempt,
      status: Option.isSome(next) ? "retrying" : "failed",
      httpStatus,
      error: failure,
      at
    }),
    health
  }
}

const encodeEvent = Schema.encodeEffect(DomainEvent)

/** Sends one claimed delivery and says what came of it; fails only when its event cannot be encoded. */
export const deliverWebhook = (
  claimed: ClaimedDelivery,
  options: Pick<DeliveryOptions, "retryBase" | "disableAfter">
) =>
  Effect.gen(function* () {
    const sender = yield* WebhookSender
    const body = JSON.stringify(yield* encodeEvent(claimed.event))
    const at = new Date(yield* Clock.currentTimeMillis)
    const outcome = yield* sender.send({
      url: claimed.url,
      webhookId: claimed.event.id,
      timestamp: at,
      body,
      secrets: claimed.secrets
    })
    return recordOutcome(claimed.delivery, outcome, at, {
      base: options.retryBase,
      random: yield* Random.next,
      failingSince: claimed.failingSince,
      disableAfter: options.disableAfter
    })
  })

/** Leases up to `limit` due deliveries, at most one per webhook, to `options.holder`. */
export const claimDueDeliveries = (options: Pick<DeliveryOptions, "holder" | "lease">, limit: number) =>
  Effect.gen(function* () {
    const queue = yield* WebhookDeliveryRepository
    const now = yield* Clock.currentTimeMillis
    return yield* queue.claimDue(new Date(now), limit, {
      holder: options.holder,
      until: new Date(now + Duration.toMillis(Duration.fromInputUnsafe(options.lease)))
    })
  })

/**
 * Sends one claimed delivery and stores what came of it; true when stored. A delivery that cannot be
 * sent or stored gives its lease back (and logs why); so does one interrupted mid-send.
 */
export const deliverClaimed = (claimed: ClaimedDelivery, options: DeliveryOptions) =>
  Effect.gen(function* () {
    const queue = yield* WebhookDeliveryRepository
    const release = queue.releaseLease(claimed.delivery, options.holder).pipe(Effect.ignore)
    const sendAndStore = deliverWebhook(claimed, options).pipe(
      Effect.withSpan(
        "WebhookDeliveries.send",
        { attributes: { webhookId: claimed.delivery.webhookId, eventId: claimed.delivery.eventId } },
        { captureStackTrace: false }
      ),
      Effect.flatMap((result) => queue.complete([result], options.holder)),
      Effect.map((stored) => stored.length > 0),
      Effect.catch((error) =>
        Effect.andThen(
          Effect.logWarning(`delivering event ${claimed.delivery.eventId} failed`, error),
          Effect.as(release, false)
        )
      )
    )
    return yield* sendAndStore.pipe(Effect.onInterrupt(() => release))
  })

export interface DeliveryPassOptions extends DeliveryOptions {
  /** How many deliveries the pass claims, and sends at once. */
  readonly batchSize: number
}

/**
 * One pass that claims what is due and waits for each claimed delivery to be sent and stored: what a
 * test or an example drives step by step. The worker never waits for a pass: it runs each delivery
 * on its own (`claimDueDeliveries`, `deliverClaimed`).
 */
export const deliverDueWebhooks = (options: DeliveryPassOptions) =>
  Effect.gen(function* () {
    const claimed = yield* claimDueDeliveries(options, options.batchSize)
    const stored = yield* Effect.forEach(claimed, (item) => deliverClaimed(item, options), {
      concurrency: "unbounded"
    })
    const completed = stored.filter(Boolean).length
    return {
      claimed: claimed.length,
      completed,
      abandoned: claimed.length - completed
    } satisfies DueCheckRound
  })
