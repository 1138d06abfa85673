/**
 * The loop of webhook deliveries (`claimDueDeliveries`, `deliverClaimed`): claims as many due
 * deliveries as the process has room for, sends each on its own fiber, for the life of the process.
 * The worker runs it beside its domain checks (see `runCustomDomainChecks`).
 */

import type { DueCheckRound } from "@petstore/kernel"
import { claimDueDeliveries, deliverClaimed } from "@petstore/webhooks"
import { Duration, Effect, FiberSet } from "effect"

export interface DeliveryLoopOptions {
  /** Identifies this process's delivery leases; unique per process. */
  readonly holder: string
  /** How long a delivery is leased, at the least (see `deliveryRoundOptions`). */
  readonly lease: Duration.Input
  /** The pause after a claim that did not fill the room, or failed. */
  readonly pollInterval: Duration.Input
  /** `PETSTORE_WEBHOOK_RETRY_BASE`: the wait after a delivery's first failed attempt. */
  readonly retryBase: Duration.Input
  /** `PETSTORE_WEBHOOK_DISABLE_AFTER`: how long every delivery may fail before its webhook is disabled. */
  readonly disableAfter: Duration.Input
  /** `PETSTORE_WEBHOOK_CONCURRENCY`: the most deliveries this process sends at once. */
  readonly deliveriesInFlight: number
  /** The longest one delivery may take (the sender's timeout): a delivery's lease outlasts it. */
  readonly sendTimeout: Duration.Input
  /** Told what came of every delivery, as a round of one. */
  readonly onDeliveryRound?: ((round: DueCheckRound) => Effect.Effect<void>) | undefined
}

/**
 * How deliveries are shaped from the loop's knobs. A delivery's lease (and its webhook's lane) lasts
 * at least two send timeouts, so that a receiver that is slow to answer is never sent the same event
 * by a second worker while the first still waits for it (were the lease shorter than the timeout, both
 * would lose their lease before storing the answer, and the event would be sent forever).
 */
export const deliveryRoundOptions = (options: DeliveryLoopOptions) => {
  const shortestLease = Duration.times(Duration.fromInputUnsafe(options.sendTimeout), 2)
  const lease = Duration.fromInputUnsafe(options.lease)
  return {
    holder: options.holder,
    inFlight: options.deliveriesInFlight,
    lease: Duration.max(lease, shortestLease),
    retryBase: options.retryBase,
    disableAfter: options.disableAfter
  }
}

/**
 * Delivers due webhooks until interrupted, none waiting for another (contract section 9): each claim
 * takes at most one delivery per webhook (its lane) and at most as many as the process has room for
 * (`deliveriesInFlight` minus those in flight), and each delivery is sent and stored on its own fiber.
 * A claim that filled the room is followed at once by the next; otherwise, or when it failed, after
 * `pollInterval`. So a webhook with nothing in flight gets its event's first attempt within a poll
 * interval of it, whatever other receivers do, as long as the process has room. Interrupted, the
 * deliveries in flight give their leases back.
 */
export const runDeliveries = (options: DeliveryLoopOptions) =>
  Effect.gen(function* () {
    const deliveries = deliveryRoundOptions(options)
    const inFlight = yield* FiberSet.make<void, never>()
    const report = (stored: boolean) =>
      options.onDeliveryRound?.({ claimed: 1, completed: stored ? 1 : 0, abandoned: stored ? 0 : 1 }) ??
      Effect.void
    const claim = Effect.gen(function* () {
      const room = deliveries.inFlight - (yield* FiberSet.size(inFlight))
      if (room <= 0) return false
      const claimed = yield* claimDueDeliveries(deliveries, room)
      for (const item of claimed) {
        yield* FiberSet.run(inFlight, Effect.flatMap(deliverClaimed(item, deliveries), report))
      }
      if (claimed.length > 0) yield* Effect.logDebug("webhook deliveries", { claimed: claimed.length, room })
      return claimed.length === room
    })
    return yield* claim.pipe(
      Effect.flatMap((full) => (full ? Effect.void : Effect.sleep(options.pollInterval))),
      Effect.catch((error) =>
        Effect.andThen(
          Effect.logWarning("claiming webhook deliveries failed", error),
          Effect.sleep(options.pollInterval)
        )
      ),
      Effect.forever
    )
  }).pipe(Effect.scoped)
