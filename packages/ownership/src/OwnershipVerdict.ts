/**
 * The verification rules with ownership (contract section 4): what DNS says of the CNAME (or ALIAS),
 * what the ownership rules require, what the TXT lookup found and whether a wildcard reaches the
 * platform, as one verdict, and whether the domain proved ownership (which fails the other accounts'
 * domains with the same hostname).
 */
import type { CustomDomainStatus, OwnershipRecord, Problem, VerificationVerdict } from "@petstore/domains"
import { type OwnershipProof, type OwnershipRequirement, ownershipRequiredProblem } from "./Ownership.js"

export interface OwnershipObservation {
  /** A name another account's proved claim covers is not verified at all: it loses (see `loseOwnership`). */
  readonly requirement: Exclude<OwnershipRequirement, { readonly _tag: "ClaimedByOther" }>
  /** What the TXT lookup found; looked up only when the requirement needs the record. */
  readonly proof: OwnershipProof | undefined
  /** `wildcard_record`, when a random name under the hostname's parent reaches the platform too. */
  readonly wildcard: ReadonlyArray<Problem>
}

export interface OwnershipOutcome {
  readonly verdict: VerificationVerdict
  /** The domain verified by proving ownership: other accounts' domains with its hostname lose it. */
  readonly proved: boolean
}

const notProved = (verdict: VerificationVerdict): OwnershipOutcome => ({ verdict, proved: false })

/**
 * The verdict for a domain in `status` with ownership record `record`, from the DNS verdict of its
 * CNAME (or ALIAS) and `observation`.
 */
export const verdictWithOwnership = (
  hostname: string,
  status: CustomDomainStatus,
  record: OwnershipRecord,
  dns: VerificationVerdict,
  observation: OwnershipObservation
): OwnershipOutcome => {
  const { proof, requirement, wildcard } = observation
  const recordProblem = (found: OwnershipProof) => ownershipRequiredProblem(hostname, record, found)
  const needed = requirement._tag === "Required" && proof !== undefined && proof._tag !== "Found"
  if (dns._tag !== "Verified") {
    return notProved(needed ? { ...dns, problems: [...dns.problems, recordProblem(proof)] } : dns)
  }
  switch (requirement._tag) {
    case "NotRequired":
      return notProved({ _tag: "Verified", problems: wildcard })
    case "ProvedByClaim":
      // The claim covers every name under the apex: no wildcard can be used by another account.
      return { verdict: { _tag: "Verified", problems: [] }, proved: true }
    case "Required": {
      if (proof === undefined || proof._tag === "Found") {
        return { verdict: { _tag: "Verified", problems: wildcard }, proved: proof !== undefined }
      }
      // A verified domain stays verified while contested, until its contender proves ownership.
      if (status === "verified") {
        return notProved({ _tag: "Verified", problems: [recordProblem(proof), ...wildcard] })
      }
      return notProved(
        proof._tag === "Unknown"
          ? { _tag: "Inconclusive", problems: [recordProblem(proof)] }
          : { _tag: "Unverified", problems: [recordProblem(proof)] }
      )
    }
  }
}
