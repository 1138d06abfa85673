/**
 * Re-verify (contract sections 3 and 6): for a verified domain whose certificate is not issued, DNS
 * checked again and the certificate asked for afresh, at once.
 */

import { isRetryable } from "@petstore/certificates"
import {
  isCoolingDown,
  NotReverifiable,
  requestCertificate,
  restartVerificationWindow
} from "@petstore/domains"
import type { AccountName } from "@petstore/kernel"
import { checkDomain, checkWrites, ownershipOf, writtenDomain } from "@petstore/ownership"
import type { ProjectId } from "@petstore/projects"
import { DateTime, Effect } from "effect"
import { type DomainDecision, decideOnDomain } from "./DomainDecisions.js"

const now = DateTime.nowAsDate

/**
 * Re-verify, for a verified domain whose certificate is not issued (pending, with or without a
 * problem found, delayed, failed): check DNS again and, if the domain still verifies, ask for the
 * certificate afresh, due at once: the owner who fixed the cause need not wait for the worker's
 * backoff. Within the cool-down of the last check the domain is not checked again: the certificate
 * is asked for afresh on the stored verdict (its order checks the record and CAA again anyway).
 */
export const reverifyDomain = (account: AccountName, id: ProjectId, hostnameText: string) =>
  decideOnDomain(account, id, hostnameText, (stored, observed) =>
    Effect.gen(function* () {
      if (stored.status !== "verified" || !isRetryable(stored.certificate)) {
        return yield* new NotReverifiable({
          hostname: stored.hostname,
          reason: `re-verify is for a verified domain whose certificate is not issued; this one is ${stored.status}, its certificate ${stored.certificate.status}`
        })
      }
      const checkedAt = yield* now
      if (yield* isCoolingDown(stored.verification.lastCheckedAt, checkedAt)) {
        const asked = requestCertificate(stored, checkedAt)
        return {
          answer: writtenDomain(asked),
          writes: { domains: [asked], claims: [] }
        } satisfies DomainDecision
      }
      const check = yield* checkDomain(
        restartVerificationWindow(stored, checkedAt),
        yield* ownershipOf(stored),
        observed
      )
      const checked =
        check.domain.status === "verified" ? requestCertificate(check.domain, checkedAt) : check.domain
      return {
        answer: writtenDomain(checked),
        writes: checkWrites({ ...check, domain: checked }),
        observation: check.observation
      } satisfies DomainDecision
    })
  )
