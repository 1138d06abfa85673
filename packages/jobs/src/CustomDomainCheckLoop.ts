/**
 * The worker's loops: rounds of custom-domain checks (`checkDueCustomDomains`) and, beside them, rounds
 * of the daily rechecks of proved claims (`checkDueClaims`) and webhook deliveries, each on its own
 * (`claimDueDeliveries`, `deliverClaimed`), for the life of the process, shaped by the options the
 * app reads (`CustomDomainCheckConfig` in apps/config). The API runs the same loop in its own process
 * when it has storage no separate worker can open (embedded, memory).
 */

import {
  checkDueClaims,
  checkDueCustomDomains,
  claimDueDeliveries,
  type DueCheckOptions,
  type DueCheckRound,
  type DueClaimRound,
  deliverClaimed
} from "@petstore/custom-domains"
import { Duration, Effect, FiberSet } from "effect"

export interface CustomDomainCheckLoopOptions extends DueCheckOptions {
  /** The pause after a round that found less than a full batch, or failed. */
  readonly pollInterval: Duration.Input
  /** `PETSTORE_WEBHOOK_RETRY_BASE`: the wait after a delivery's first failed attempt. */
  readonly retryBase: Duration.Input
  /** `PETSTORE_WEBHOOK_DISABLE_AFTER`: how long every delivery may fail before its webhook is disabled. */
  readonly disableAfter: Duration.Input
  /** `PETSTORE_WEBHOOK_CONCURRENCY`: the most deliveries this process sends at once. */
  readonly deliveriesInFlight: number
  /** The longest one delivery may take (the sender's timeout): a delivery's lease outlasts it. */
  readonly sendTimeout: Duration.Input
  /** Told every round's outcome (the worker's metrics). */
  readonly onRound?: ((round: DueCheckRound) => Effect.Effect<void>) | undefined
  /** Told every round of claim rechecks' outcome. */
  readonly onClaimRound?: ((round: DueClaimRound) => Effect.Effect<void>) | undefined
  /** Told what came of every delivery, as a round of one. */
  readonly onDeliveryRound?: ((round: DueCheckRound) => Effect.Effect<void>) | undefined
}

/**
 * How deliveries are shaped from the loop's knobs. A delivery's lease (and its webhook's lane) lasts
 * at least two send timeouts, so that a receiver that is slow to answer is never sent the same event
 * by a second worker while the first still waits for it (were the lease shorter than the timeout, both
 * would lose their lease before storing the answer, and the event would be sent forever).
 */
export const deliveryRoundOptions = (options: CustomDomainCheckLoopOptions) => {
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
export const runDeliveries = (options: CustomDomainCheckLoopOptions) =>
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

export interface RoundLoopOptions<Round> {
  /** What the rounds do, as the logs name them: "domain checks", "claim rechecks". */
  readonly work: string
  readonly batchSize: number
  readonly pollInterval: Duration.Input
  readonly onRound?: ((round: Round) => Effect.Effect<void>) | undefined
}

/**
 * Runs `round` until interrupted: another round at once while rounds come back full (`batchSize`
 * claimed), otherwise a pause of `pollInterval`. A round that fails (storage down) is logged and
 * retried after the pause.
 */
export const repeatRounds = <Round extends { readonly claimed: number }, E, R>(
  round: Effect.Effect<Round, E, R>,
  options: RoundLoopOptions<Round>
): Effect.Effect<never, never, R> =>
  round.pipe(
    Effect.tap((outcome) => (outcome.claimed > 0 ? Effect.logDebug(options.work, outcome) : Effect.void)),
    Effect.tap((outcome) => options.onRound?.(outcome) ?? Effect.void),
    Effect.flatMap((outcome) =>
      outcome.claimed === options.batchSize ? Effect.void : Effect.sleep(options.pollInterval)
    ),
    Effect.catch((error) =>
      Effect.andThen(
        Effect.logWarning(`a round of ${options.work} failed`, error),
        Effect.sleep(options.pollInterval)
      )
    ),
    Effect.forever
  )

/**
 * How many rounds of domain checks a process keeps in flight. A round waits on storage three times
 * (its claim, its checks' ownership facts, its results), with nothing else to do meanwhile; a second
 * round does its DNS work in those waits.
 */
export const checkRoundsInFlight = 2

/**
 * Checks due custom domains, rechecks due claims and delivers due webhooks until interrupted: loops
 * side by side on the same knobs, so that no kind of work waits for another (a receiver that hangs
 * delays no domain check). Each loop of domain checks holds its leases under a
 * holder of its own (the process's, numbered), so that a result of one can never be stored over a
 * lease the other took.
 */
export const runCustomDomainChecks = (options: CustomDomainCheckLoopOptions) => {
  const checkLoops = Array.from({ length: checkRoundsInFlight }, (_, index) =>
    repeatRounds(checkDueCustomDomains({ ...options, holder: `${options.holder}/${index + 1}` }), {
      ...options,
      work: "domain checks"
    })
  )
  return Effect.all(
    [
      ...checkLoops,
      repeatRounds(checkDueClaims(options), {
        ...options,
        work: "claim rechecks",
        onRound: options.onClaimRound
      }),
      runDeliveries(options)
    ],
    { concurrency: "unbounded", discard: true }
  )
}
