/**
 * Port: stores what one decision writes, all or nothing, each row conditional on the version it was
 * decided from (see `StoredVersion`): a check's outcome (the domain, and the other accounts' domains
 * that lose the hostname to it) or a claim's proof (the claim, the claims it lapses, the domains it
 * takes). Storage itself keeps at most one verified domain per hostname, so a write that would make a
 * second is refused like a lost race.
 */

import type { CustomDomain } from "@petstore/domains"
import type { StorageError } from "@petstore/kernel"
import type { Effect } from "effect"
import { Context } from "effect"
import type { Claim } from "./Claim.js"

/**
 * What one decision writes at once (a check's outcome: the domain, the other accounts' domains that
 * lose the name to it; a claim's proof: the claim, the claims it lapses and the domains it takes):
 * each domain and claim as decided from the version it carries.
 */
export interface DecidedWrites {
  readonly domains: ReadonlyArray<CustomDomain>
  readonly claims: ReadonlyArray<Claim>
}

export class DecidedWritesStore extends Context.Service<
  DecidedWritesStore,
  {
    /**
     * Stores every domain and claim of `writes` (replacing the stored ones, ending their leases), each
     * only while it is still at the version it carries, all or nothing: false, and nothing changed,
     * when one is not, is gone, or when the domains would leave two verified domains of one hostname.
     */
    readonly storeDecided: (writes: DecidedWrites) => Effect.Effect<boolean, StorageError>
  }
>()("@petstore/ownership/DecidedWritesStore") {}
