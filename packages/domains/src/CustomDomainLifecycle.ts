/**
 * How a custom domain's state moves: it is added pending with its DNS instruction; each check applies
 * a verdict; the 48-hour window closes on a domain still unverified; Verify restarts the window. A
 * domain that verifies has its certificate asked for at once (`pending`, see IssuanceSchedule).
 */
import type { AccountName } from "@petstore/kernel"
import { firstVersion } from "@petstore/kernel"
import type { ProjectId } from "@petstore/projects"
import { requestCertificate } from "./CertificateRequest.js"
import {
  type CustomDomain,
  dnsInstruction,
  makeCertificate,
  makeCustomDomain,
  makeVerification
} from "./CustomDomain.js"
import { type Hostname, hostnameKind } from "./Hostname.js"
import { OwnershipRecord, type OwnershipToken, ownershipRecord } from "./OwnershipRecord.js"
import { Problem } from "./Problem.js"
import { deadlineFrom, nextCheckAt } from "./VerificationSchedule.js"
import type { VerificationVerdict } from "./VerificationVerdict.js"

const noCertificate = makeCertificate({ status: "none", issuedAt: null, expiresAt: null, problems: [] })

/** A new domain of the account's project: pending, checked at once by the worker, with 48 hours to verify. */
export const newCustomDomain = (
  owner: { readonly account: AccountName; readonly projectId: ProjectId },
  hostname: Hostname,
  ownership: { readonly token: OwnershipToken; readonly required: boolean },
  target: string,
  now: Date
): CustomDomain => {
  const kind = hostnameKind(hostname)
  return makeCustomDomain({
    hostname,
    projectId: owner.projectId,
    account: owner.account,
    kind,
    status: "pending",
    dnsRecord: dnsInstruction(hostname, kind, target),
    ownership: ownershipRecord(hostname, ownership.token, ownership.required),
    verification: makeVerification({
      lastCheckedAt: null,
      nextCheckAt: now,
      deadline: deadlineFrom(now),
      problems: []
    }),
    certificate: noCertificate,
    createdAt: now,
    issuance: null,
    version: firstVersion
  })
}

/** Verify (or Re-verify) clicked: a fresh 48-hour window, starting now. */
export const restartVerificationWindow = (domain: CustomDomain, now: Date): CustomDomain =>
  makeCustomDomain({
    ...domain,
    status: domain.status === "failed" ? "pending" : domain.status,
    verification: makeVerification({ ...domain.verification, nextCheckAt: now, deadline: deadlineFrom(now) })
  })

const timedOut = (deadline: Date) =>
  new Problem({
    code: "verification_timed_out",
    message: `The domain did not verify within 48 hours (by ${deadline.toISOString()}). Fix the DNS record, then click Verify to try again.`
  })

/** The domain after a check at `now` that gave `verdict`. */
export const applyVerdict = (domain: CustomDomain, verdict: VerificationVerdict, now: Date): CustomDomain => {
  const { deadline } = domain.verification
  if (verdict._tag === "Verified") {
    const verified = makeCustomDomain({
      ...domain,
      status: "verified",
      verification: makeVerification({
        lastCheckedAt: now,
        nextCheckAt: null,
        deadline,
        problems: verdict.problems
      })
    })
    return domain.certificate.status === "none" ? requestCertificate(verified, now) : verified
  }
  // A lookup that got no answer never takes a verified domain down by itself.
  if (verdict._tag === "Inconclusive" && domain.status === "verified") {
    return makeCustomDomain({
      ...domain,
      verification: makeVerification({
        ...domain.verification,
        lastCheckedAt: now,
        nextCheckAt: null,
        problems: verdict.problems
      })
    })
  }
  if (now.getTime() >= deadline.getTime()) {
    return makeCustomDomain({
      ...domain,
      status: "failed",
      verification: makeVerification({
        lastCheckedAt: now,
        nextCheckAt: null,
        deadline,
        problems: [timedOut(deadline), ...verdict.problems]
      })
    })
  }
  return makeCustomDomain({
    ...domain,
    status: "pending",
    verification: makeVerification({
      lastCheckedAt: now,
      nextCheckAt: nextCheckAt(deadline, now),
      deadline,
      problems: verdict.problems
    })
  })
}

/**
 * Another account proved it owns the hostname (or claimed its apex): the domain fails with `problem`
 * (`ownership_lost`), is no longer served, and its certificate work stops. The certificate it had is
 * no longer its own (the winner's replaces it), so it has none: should it verify again (Verify starts
 * it again), a certificate is asked for as for a new domain.
 */
export const loseOwnership = (domain: CustomDomain, problem: Problem, now: Date): CustomDomain =>
  makeCustomDomain({
    ...domain,
    status: "failed",
    verification: makeVerification({
      lastCheckedAt: now,
      nextCheckAt: null,
      deadline: domain.verification.deadline,
      problems: [problem]
    }),
    certificate: noCertificate,
    issuance: null
  })

/** Whether the domain has lost its hostname to another account (and has not been verified again since). */
export const hasLostOwnership = (domain: CustomDomain): boolean =>
  domain.status === "failed" &&
  domain.verification.problems.some((problem) => problem.code === "ownership_lost")

/** The domain with `ownership.required` as the rules say now. */
export const withOwnershipRequired = (domain: CustomDomain, required: boolean): CustomDomain =>
  domain.ownership.required === required
    ? domain
    : makeCustomDomain({ ...domain, ownership: new OwnershipRecord({ ...domain.ownership, required }) })
