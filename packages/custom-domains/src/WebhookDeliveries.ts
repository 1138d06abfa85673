/**
 * One round of the worker's webhook deliveries: claim the deliveries due, send each (bounded
 * concurrency), turn what came of it into an attempt and the delivery's next state with the retry
 * rule, and store the round's results only while each lease still holds. A worker stopped or killed
 * mid-round stores nothing of it: the leases come back (given back, or expired) and the deliveries are
 * sent again, with the same `webhook-id`, so receivers get each event at least once. How often rounds
 * run is the application's.
 */
import { Array as Arr, Clock, Duration, Effect, Option, Random, Schema } from "effect"
import type { DueCheckOptions, DueCheckRound } from "./CustomDomainChecks.js"
import { DomainEvent } from "./DomainEvent.js"
import { DeliveryAttempt, WebhookDelivery } from "./Webhook.js"
import {
  type ClaimedDelivery,
  type DeliveryResult,
  WebhookDeliveryRepository
} from "./WebhookDeliveryRepository.js"
import { nextWebhookAttemptAt } from "./WebhookRetry.js"
import type { SendOutcome } from "./WebhookSender.js"
import { WebhookSender } from "./WebhookSender.js"

export interface DueDeliveryOptions extends DueCheckOptions {
  /** `PETSTORE_WEBHOOK_RETRY_BASE`: the wait after a first failed attempt. */
  readonly retryBase: Duration.Input
}

const failureOf = (outcome: Exclude<SendOutcome, { readonly _tag: "Delivered" }>): string => {
  switch (outcome._tag) {
    case "Rejected":
      return `the receiver answered ${outcome.status}`
    case "Unreachable":
    case "Refused":
      return outcome.reason
  }
}

/**
 * The attempt that `outcome` was, started at `at`, and the delivery after it: delivered on a 2xx;
 * otherwise retried by the retry rule (`random` draws its jitter), or failed once its 24 hours are over.
 * A refused address is retried too: names change, and a retry opens no connection until they do.
 */
export const recordOutcome = (
  delivery: WebhookDelivery,
  outcome: SendOutcome,
  at: Date,
  retry: { readonly base: Duration.Input; readonly random: number }
): DeliveryResult => {
  const attempt = delivery.attempts + 1
  const firstAttemptAt = delivery.firstAttemptAt ?? at
  const httpStatus = outcome._tag === "Delivered" || outcome._tag === "Rejected" ? outcome.status : null
  if (outcome._tag === "Delivered") {
    return {
      delivery: new WebhookDelivery({ ...delivery, attempts: attempt, firstAttemptAt, status: "delivered" }),
      attempt: new DeliveryAttempt({
        eventId: delivery.eventId,
        attempt,
        status: "delivered",
        httpStatus,
        error: null,
        at
      })
    }
  }
  const next = nextWebhookAttemptAt({
    base: retry.base,
    attempt,
    attemptedAt: at,
    firstAttemptAt,
    random: retry.random
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
      error: failureOf(outcome),
      at
    })
  }
}

const encodeEvent = Schema.encodeEffect(DomainEvent)

/** Sends one claimed delivery and says what came of it; fails only when its event cannot be encoded. */
export const deliverWebhook = (claimed: ClaimedDelivery, retryBase: Duration.Input) =>
  Effect.gen(function* () {
    const sender = yield* WebhookSender
    const body = JSON.stringify(yield* encodeEvent(claimed.event))
    const at = new Date(yield* Clock.currentTimeMillis)
    const outcome = yield* sender.send({
      url: claimed.url,
      webhookId: claimed.event.id,
      timestamp: at,
      body,
      secret: claimed.secret
    })
    return recordOutcome(claimed.delivery, outcome, at, { base: retryBase, random: yield* Random.next })
  })

export const deliverDueWebhooks = (options: DueDeliveryOptions) =>
  Effect.gen(function* () {
    const queue = yield* WebhookDeliveryRepository
    const now = yield* Clock.currentTimeMillis
    const claimed = yield* queue.claimDue(new Date(now), options.batchSize, {
      holder: options.holder,
      until: new Date(now + Duration.toMillis(options.lease))
    })
    const release = (item: ClaimedDelivery) =>
      queue.releaseLease(item.delivery, options.holder).pipe(Effect.ignore)
    const storeAlone = (result: DeliveryResult) =>
      queue
        .complete([result], options.holder)
        .pipe(
          Effect.catch((error) =>
            Effect.andThen(
              Effect.logWarning(`storing the delivery of event ${result.delivery.eventId} failed`, error),
              Effect.as(queue.releaseLease(result.delivery, options.holder).pipe(Effect.ignore), [])
            )
          )
        )
    const round = Effect.gen(function* () {
      const results = yield* Effect.forEach(
        claimed,
        (item) =>
          deliverWebhook(item, options.retryBase).pipe(
            Effect.map(Option.some),
            Effect.withSpan(
              "WebhookDeliveries.send",
              { attributes: { webhookId: item.delivery.webhookId, eventId: item.delivery.eventId } },
              { captureStackTrace: false }
            ),
            // An event that cannot be sent gives its lease back and spares the others.
            Effect.catch((error) =>
              Effect.andThen(
                Effect.logWarning(`delivering event ${item.delivery.eventId} failed`, error),
                Effect.as(release(item), Option.none<DeliveryResult>())
              )
            )
          ),
        { concurrency: options.concurrency }
      )
      const sent = Arr.getSomes(results)
      // The round's results in one write; when it fails, each is written alone, so that one bad
      // result (or a storage hiccup) gives back only the leases it must.
      return yield* queue
        .complete(sent, options.holder)
        .pipe(Effect.catch(() => Effect.map(Effect.forEach(sent, storeAlone), Arr.flatten)))
    })
    // Stopping mid-round gives back every lease still held (a stored result holds none).
    const stored = yield* round.pipe(
      Effect.onInterrupt(() => Effect.forEach(claimed, release, { discard: true }))
    )
    return {
      claimed: claimed.length,
      completed: stored.length,
      abandoned: claimed.length - stored.length
    } satisfies DueCheckRound
  })
