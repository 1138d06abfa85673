/**
 * Who owns a hostname (contract section 4). A CNAME to the shared platform target proves only that DNS
 * points at the platform, not who owns the name: a dangling record (the owner removed the domain and
 * left the CNAME) or a name added first by someone else would otherwise be served for the wrong
 * account. Every domain carries a TXT ownership record, per account and name, which verification
 * needs when the hostname is contested:
 *
 * 1. another account has the same hostname (pending, verified or failed);
 * 2. another account had it verified within the last 30 days (and removed it);
 * 3. it lies under an apex another account has claimed (a pending claim: a proved claim refuses the
 *    hostname outright, see `Claim`).
 *
 * The account that proves ownership wins: its domain verifies and the other accounts' domains fail
 * with `ownership_lost`. A domain that is verified already stays verified when contested, until its
 * contender proves ownership (the owner is told to create the record meanwhile): a squatter adding a
 * name must not take the real owner's site down.
 */

import type { DnsAnswer, OwnershipRecord } from "@petstore/domains"
import { DnsName, Problem } from "@petstore/domains"
import type { AccountName } from "@petstore/kernel"
import { Duration } from "effect"

/** How long a hostname another account had verified stays contested after that account let it go. */
export const recentHoldWindow = Duration.days(30)

/** Another account's hold on a hostname that it has let go (removed while verified). */
export interface HostnameRelease {
  readonly account: AccountName
  readonly hostname: string
  readonly releasedAt: Date
}

/** What the ownership rules read about a hostname, as the stores answer it. */
export interface OwnershipFacts {
  /** The accounts with a domain of this hostname (the caller's own may be among them: it contests nothing). */
  readonly holders: ReadonlyArray<AccountName>
  readonly releases: ReadonlyArray<HostnameRelease>
  /**
   * The claims of the hostname's apex, by every account (a `Claim` is one; only what the rules read
   * is named here, so that this module does not depend on claims).
   */
  readonly claims: ReadonlyArray<{
    readonly account: AccountName
    readonly apex: string
    readonly status: "pending" | "verified"
  }>
}

export type OwnershipRequirement =
  /** Nobody else has or recently had the name: the CNAME (or ALIAS) alone verifies. */
  | { readonly _tag: "NotRequired" }
  /** Contested: verification needs the TXT record. */
  | { readonly _tag: "Required" }
  /** The account's own proved claim covers the name: the claim's record is the proof. */
  | { readonly _tag: "ProvedByClaim"; readonly apex: string }
  /** Another account's proved claim covers the name: only that account may have it. */
  | { readonly _tag: "ClaimedByOther"; readonly apex: string }

/** Whether `account` needs the TXT record for `hostname` at `now`, given `facts`. */
export const ownershipRequirement = (
  account: AccountName,
  facts: OwnershipFacts,
  now: Date
): OwnershipRequirement => {
  const proved = facts.claims.filter((claim) => claim.status === "verified")
  const own = proved.find((claim) => claim.account === account)
  if (own !== undefined) return { _tag: "ProvedByClaim", apex: own.apex }
  const other = proved.find((claim) => claim.account !== account)
  if (other !== undefined) return { _tag: "ClaimedByOther", apex: other.apex }
  const since = now.getTime() - Duration.toMillis(recentHoldWindow)
  const contested =
    facts.holders.some((holder) => holder !== account) ||
    facts.releases.some((release) => release.account !== account && release.releasedAt.getTime() > since) ||
    facts.claims.some((claim) => claim.account !== account)
  return contested ? { _tag: "Required" } : { _tag: "NotRequired" }
}

/** Whether the requirement asks for the TXT record (what `ownership.required` shows). */
export const needsRecord = (requirement: OwnershipRequirement): boolean =>
  requirement._tag === "Required" || requirement._tag === "ClaimedByOther"

/** What the TXT lookup says of the proof. */
export type OwnershipProof =
  | { readonly _tag: "Found" }
  /** DNS answered, without the value: the values found, if any. */
  | { readonly _tag: "Missing"; readonly found: ReadonlyArray<string> }
  /** DNS did not answer: try again later. */
  | { readonly _tag: "Unknown"; readonly detail: string }

/** Reads the TXT answer at the record's name: the record is there when one value equals `value`. */
export const ownershipProof = (answer: DnsAnswer<string>, value: string): OwnershipProof => {
  switch (answer._tag) {
    case "Records":
      return answer.records.some((text) => text.trim() === value)
        ? { _tag: "Found" }
        : { _tag: "Missing", found: answer.records }
    case "NoRecords":
      return { _tag: "Missing", found: [] }
    case "Failure":
      return { _tag: "Unknown", detail: `${answer.reason}: ${answer.detail}` }
  }
}

export const ownershipRequiredProblem = (hostname: string, record: OwnershipRecord, proof: OwnershipProof) =>
  new Problem({
    code: "ownership_required",
    message:
      proof._tag === "Unknown"
        ? `Another account has or recently had ${hostname}, so verification needs the TXT record ${record.name} = "${record.value}"; its lookup did not get an answer (${proof.detail}) and will be retried.`
        : `Another account has or recently had ${hostname}: create the TXT record ${record.name} with the value "${record.value}" to prove you own it.`,
    ...(proof._tag === "Missing" && proof.found.length > 0
      ? { found: proof.found.map((text) => `TXT ${JSON.stringify(text)}`) }
      : {})
  })

export const ownershipLostProblem = (hostname: string, reason: "proved" | "claimed", apex?: string) =>
  new Problem({
    code: "ownership_lost",
    message:
      reason === "claimed"
        ? `Another account has proved it owns ${apex ?? hostname} and every name under it: ${hostname} is no longer served for this project.`
        : `Another account proved it owns ${hostname} with its TXT ownership record: the domain is no longer served for this project. If the name is yours, create this domain's TXT record and click Verify.`
  })

/** The label looked up under a hostname's parent to find a wildcard: random, so nobody creates it by chance. */
export const wildcardProbeName = (hostname: string, randomLabel: string): string | undefined => {
  const parent = DnsName.labelsOf(hostname).slice(1).join(".")
  // Under a public suffix (`com`, `co.uk`) a wildcard is not the owner's to create.
  return DnsName.registrableDomain(parent)._tag === "Some" ? `${randomLabel}.${parent}` : undefined
}

export const wildcardProblem = (hostname: string, probe: string, apex: string) => {
  const parent = DnsName.labelsOf(hostname).slice(1).join(".")
  return new Problem({
    code: "wildcard_record",
    message: `Every name under ${parent} reaches the platform (a wildcard record: ${probe} does too): claim ${apex} so that no other account can use them.`,
    found: [`*.${parent}`]
  })
}
