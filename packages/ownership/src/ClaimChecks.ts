/**
 * One round of the worker's claim rechecks: lease the proved claims due for their daily check, look
 * each record up, and store the results while each lease still holds. A claim whose record is gone
 * lapses; one whose lookup got no answer is tried again sooner (see `applyClaimCheck`). How often
 * rounds run is the application's.
 */

import type { DueCheckOptions } from "@petstore/kernel"
import { Array as Arr, Clock, Duration, Effect, Option } from "effect"
import type { Claim } from "./Claim.js"
import { ClaimRepository } from "./ClaimRepository.js"
import { type ClaimCheck, checkClaim, claimCheckWrites } from "./Claims.js"
import { DecidedWritesStore } from "./DecidedWritesStore.js"

export interface DueClaimRound {
  readonly claimed: number
  readonly completed: number
}

/**
 * A recheck that takes nothing from others is stored with the round's results (none: the claim to
 * store). One that does is stored at once with what it takes, all or nothing, each conditional on the
 * state it was decided from (the claim's write ends its lease); outpaced by another write, its lease
 * goes back and the next round decides again from what won.
 */
const storeTakeover = (check: ClaimCheck, release: (claim: Claim) => Effect.Effect<void>) =>
  Effect.gen(function* () {
    if (check.rivals.length === 0 && check.losers.length === 0) return Option.some(check.claim)
    const decided = yield* DecidedWritesStore
    if (!(yield* decided.storeDecided(claimCheckWrites(check)))) yield* release(check.claim)
    return Option.none<Claim>()
  })

export const checkDueClaims = (options: DueCheckOptions) =>
  Effect.gen(function* () {
    const claims = yield* ClaimRepository
    const now = yield* Clock.currentTimeMillis
    const leased = yield* claims.claimDue(new Date(now), options.batchSize, {
      holder: options.holder,
      until: new Date(now + Duration.toMillis(options.lease))
    })
    const release = (claim: Claim) =>
      claims.releaseLease(claim.account, claim.apex, options.holder).pipe(Effect.ignore)
    const round = Effect.gen(function* () {
      const results = yield* Effect.forEach(
        leased,
        (claim) =>
          checkClaim(claim).pipe(
            Effect.flatMap((check) => storeTakeover(check, release)),
            Effect.catch((error) =>
              Effect.andThen(
                Effect.logWarning(`the recheck of the claim of ${claim.apex} failed`, error),
                Effect.as(release(claim), Option.none<Claim>())
              )
            )
          ),
        { concurrency: options.concurrency }
      )
      return yield* claims.completeChecks(Arr.getSomes(results), options.holder)
    })
    const completed = yield* round.pipe(
      Effect.onInterrupt(() => Effect.forEach(leased, release, { discard: true }))
    )
    return { claimed: leased.length, completed } satisfies DueClaimRound
  })
