/**
 * Deciding from stored state and storing the decision conditionally on it (see `StoredVersion`):
 * when another write came first, the decision is taken again from what won, never written over it.
 * Attempts are bounded: when they run out (the state keeps changing under a burst of writes), the
 * caller answers from the state that won instead.
 */

import { type CustomDomain, makeCustomDomain } from "@petstore/domains"
import type { StorageError } from "@petstore/kernel"
import { Effect } from "effect"
import { Claim } from "./Claim.js"
import { type DecidedWrites, DecidedWritesStore } from "./DecidedWritesStore.js"

/** A decision: its answer, and what must be stored for it to stand (nothing: it stands as read). */
export interface Decision<A> {
  readonly answer: A
  readonly writes: DecidedWrites
}

/** Nothing to store. */
export const noWrites: DecidedWrites = { domains: [], claims: [] }

const hasWrites = (writes: DecidedWrites): boolean => writes.domains.length > 0 || writes.claims.length > 0

/** How many times a decision is taken before its caller answers from what won instead. */
export const decisionAttempts = 8

/**
 * Takes `decide`'s decision and stores it; when a write came first, decides again from the start
 * (`decide` reads the state itself, so it reads what won). After `decisionAttempts` lost races the
 * answer is `whenOutpaced`'s. No pause between attempts: the re-read is itself a wait on storage,
 * and a timed pause would stop under a test's clock.
 */
export const decideAndStore = <A, E, R, E2, R2>(
  decide: Effect.Effect<Decision<A>, E, R>,
  whenOutpaced: Effect.Effect<A, E2, R2>
): Effect.Effect<A, E | E2 | StorageError, R | R2 | DecidedWritesStore> =>
  Effect.gen(function* () {
    const store = yield* DecidedWritesStore
    for (let attempt = 1; attempt <= decisionAttempts; attempt++) {
      const decision = yield* decide
      if (!hasWrites(decision.writes) || (yield* store.storeDecided(decision.writes))) {
        return decision.answer
      }
      yield* Effect.yieldNow
    }
    return yield* whenOutpaced
  })

/**
 * The domain as a store keeps it once written over the stored one at `storedVersion` (the version it
 * was decided from, for a conditional write): the next version.
 */
export const writtenDomain = (domain: CustomDomain, storedVersion: number = domain.version): CustomDomain =>
  makeCustomDomain({ ...domain, version: storedVersion + 1 })

/** The claim as a store keeps it once written over the stored one at `storedVersion`: the next version. */
export const writtenClaim = (claim: Claim, storedVersion: number = claim.version): Claim =>
  new Claim({ ...claim, version: storedVersion + 1 })
