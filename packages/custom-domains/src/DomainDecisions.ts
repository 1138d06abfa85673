/**
 * A decision on an owner's domain (Verify, Re-verify), taken from its stored state and stored
 * conditionally on it: decided again from what won when another write came first, with what DNS said
 * in the earlier attempt so that DNS is not asked twice.
 */

import type { CustomDomain } from "@petstore/domains"
import type { AccountName } from "@petstore/kernel"
import type { CheckObservation } from "@petstore/ownership"
import { type Decision, decideAndStore } from "@petstore/ownership"
import type { ProjectId } from "@petstore/projects"
import { Effect } from "effect"
import { getDomain } from "./OwnedDomains.js"

/** A decision on a domain, with what DNS said for it (to be used again if it must be taken again). */
export interface DomainDecision extends Decision<CustomDomain> {
  readonly observation?: CheckObservation | undefined
}

/**
 * A decision on the domain of `account`'s project taken from its stored state, and stored
 * conditionally on it (see `decideAndStore`): `decide` gets the stored domain and what DNS said in an
 * earlier attempt, if any. A domain gone meanwhile is not found; when other writes keep coming first,
 * the answer is the domain as they left it.
 */
export const decideOnDomain = <E, R>(
  account: AccountName,
  id: ProjectId,
  hostnameText: string,
  decide: (
    stored: CustomDomain,
    observed: CheckObservation | undefined
  ) => Effect.Effect<DomainDecision, E, R>
) =>
  Effect.suspend(() => {
    let observed: CheckObservation | undefined
    return decideAndStore(
      Effect.gen(function* () {
        const decision = yield* decide(yield* getDomain(account, id, hostnameText), observed)
        observed = decision.observation ?? observed
        return decision
      }),
      getDomain(account, id, hostnameText)
    )
  })
