/**
 * Verify, clicked by the owner (contract section 3): DNS checked now with the ownership rules, and a
 * fresh 48-hour window; hammering it costs nothing (see `VerifyCooldown`).
 */

import { isAnsweredBy, restartVerificationWindow } from "@petstore/domains"
import type { AccountName } from "@petstore/kernel"
import { checkDomain, checkWrites, noWrites, ownershipOf, writtenDomain } from "@petstore/ownership"
import type { ProjectId } from "@petstore/projects"
import { DateTime, Effect } from "effect"
import { type DomainDecision, decideOnDomain } from "./DomainDecisions.js"

const now = DateTime.nowAsDate

/**
 * Verify clicked: check DNS now, and give DNS another 48 hours if it does not verify yet. A check made
 * since the click, or within the cool-down of the last check, answers it as that check left the
 * domain (see `isAnsweredBy`).
 */
export const verifyNow = (account: AccountName, id: ProjectId, hostnameText: string) =>
  Effect.flatMap(now, (clickedAt) =>
    decideOnDomain(account, id, hostnameText, (stored, observed) =>
      Effect.gen(function* () {
        if (yield* isAnsweredBy(stored.verification.lastCheckedAt, clickedAt)) {
          return { answer: stored, writes: noWrites } satisfies DomainDecision
        }
        const checkedAt = yield* now
        const domain = restartVerificationWindow(stored, checkedAt)
        const check = yield* checkDomain(domain, yield* ownershipOf(domain), observed)
        return {
          answer: writtenDomain(check.domain),
          writes: checkWrites(check),
          observation: check.observation
        } satisfies DomainDecision
      })
    )
  )
