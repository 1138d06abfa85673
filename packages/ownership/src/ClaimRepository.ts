/**
 * Port: where claims are kept, one per account and apex. Rechecks of proved claims are leased like
 * domain checks, so that several workers share them without checking one claim twice at once.
 */

import type { Hostname } from "@petstore/domains"
import type { AccountName, Lease, LimitReached, LimitValues, StorageError } from "@petstore/kernel"
import type { Effect, Option } from "effect"
import { Context } from "effect"
import type { Claim } from "./Claim.js"

export class ClaimRepository extends Context.Service<
  ClaimRepository,
  {
    /**
     * False when the account has a claim of this apex already (nothing is changed then); fails with
     * `LimitReached` when the account has `limits.claimsPerAccount` claims, or
     * `limits.pendingClaimsPerAccount` pending ones (a new claim is pending), counted and inserted in
     * one step: concurrent inserts at a limit never overshoot it.
     */
    readonly insert: (
      claim: Claim,
      limits: Pick<LimitValues, "claimsPerAccount" | "pendingClaimsPerAccount">
    ) => Effect.Effect<boolean, LimitReached | StorageError>
    readonly findOwned: (
      account: AccountName,
      apex: Hostname
    ) => Effect.Effect<Option.Option<Claim>, StorageError>
    /** An account's claims, oldest first. */
    readonly listByAccount: (account: AccountName) => Effect.Effect<ReadonlyArray<Claim>, StorageError>
    /** Every account's claims of one of these apexes, oldest first. */
    readonly listByApexes: (
      apexes: ReadonlyArray<Hostname>
    ) => Effect.Effect<ReadonlyArray<Claim>, StorageError>
    /**
     * Replaces the stored claim (same account and apex) while it is still at `claim.version`, ending
     * any lease; false when it is not (another write came first, or it is gone). What a proof takes
     * from others is stored with it by `DecidedWritesStore.storeDecided`.
     */
    readonly update: (claim: Claim) => Effect.Effect<boolean, StorageError>
    /** False when the account had no claim of this apex. */
    readonly remove: (account: AccountName, apex: Hostname) => Effect.Effect<boolean, StorageError>
    /**
     * Leases up to `limit` claims whose `nextCheckAt` has passed at `now` and that no live lease
     * holds, oldest due first.
     */
    readonly claimDue: (
      now: Date,
      limit: number,
      lease: Lease
    ) => Effect.Effect<ReadonlyArray<Claim>, StorageError>
    /** Stores leased rechecks' results, each only while `holder` still holds its lease; how many were stored. */
    readonly completeChecks: (
      claims: ReadonlyArray<Claim>,
      holder: string
    ) => Effect.Effect<number, StorageError>
    /** Gives back a lease, so the claim can be rechecked again at once. */
    readonly releaseLease: (
      account: AccountName,
      apex: Hostname,
      holder: string
    ) => Effect.Effect<void, StorageError>
  }
>()("@petstore/ownership/ClaimRepository") {}
