/**
 * The worker's loops: rounds of custom-domain checks (`checkDueCustomDomains`) and, beside them, rounds
 * of the daily rechecks of proved claims (`checkDueClaims`) and webhook deliveries (`DeliveryLoop`),
 * each on its own, for the life of the process, shaped by the options the app reads
 * (`CustomDomainCheckConfig` in apps/config). The API runs the same loop in its own process
 * when it has storage no separate worker can open (embedded, memory).
 */

import { checkDueCustomDomains } from "@petstore/custom-domains"
import type { DueCheckOptions, DueCheckRound } from "@petstore/kernel"
import { checkDueClaims, type DueClaimRound } from "@petstore/ownership"
import { type Duration, Effect } from "effect"
import { type DeliveryLoopOptions, runDeliveries } from "./DeliveryLoop.js"
import { repeatRounds } from "./RoundLoop.js"

export interface CustomDomainCheckLoopOptions extends DueCheckOptions, DeliveryLoopOptions {
  /** The pause after a round that found less than a full batch, or failed. */
  readonly pollInterval: Duration.Input
  /** Told every round's outcome (the worker's metrics). */
  readonly onRound?: ((round: DueCheckRound) => Effect.Effect<void>) | undefined
  /** Told every round of claim rechecks' outcome. */
  readonly onClaimRound?: ((round: DueClaimRound) => Effect.Effect<void>) | undefined
}

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
