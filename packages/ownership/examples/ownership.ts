/**
 * Who owns a hostname, as pure rules: when verification needs the TXT ownership record, what a TXT
 * answer proves, the verdict once ownership is weighed in, and a claim of an apex that keeps every
 * name under it for one account.
 */

import { Hostname, OwnershipToken, ownershipRecord } from "@petstore/domains"
import { AccountName } from "@petstore/kernel"
import {
  applyClaimCheck,
  claimCovers,
  newClaim,
  ownershipProof,
  ownershipRequirement,
  verdictWithOwnership,
  wildcardProbeName
} from "@petstore/ownership"

const acme = AccountName.make("acme")
const rival = AccountName.make("rival")
const token = OwnershipToken.make("5f0c2a9e7b3d41c8a6e2f0b9d7c5a3e1")
const now = new Date("2026-11-26T09:00:00Z")
const releasedDaysAgo = (days: number) => [
  { account: rival, hostname: "docs.example.com", releasedAt: new Date(now.getTime() - days * 86_400_000) }
]

// Nobody else; another account has the name; it let the verified name go 10 days ago; 31 days ago.
const requirements = [
  ownershipRequirement(acme, { holders: [acme], releases: [], claims: [] }, now),
  ownershipRequirement(acme, { holders: [acme, rival], releases: [], claims: [] }, now),
  ownershipRequirement(acme, { holders: [acme], releases: releasedDaysAgo(10), claims: [] }, now),
  ownershipRequirement(acme, { holders: [acme], releases: releasedDaysAgo(31), claims: [] }, now)
]
console.log(requirements.map((requirement) => requirement._tag))

// The record to create, and what TXT answers prove.
const record = ownershipRecord("docs.example.com", token, true)
console.log(record.name, record.value)
console.log(
  ownershipProof({ _tag: "Records", records: ["v=spf1 -all", record.value] }, record.value)._tag,
  ownershipProof({ _tag: "Records", records: ["v=spf1 -all"] }, record.value)._tag,
  ownershipProof({ _tag: "Failure", reason: "timeout", detail: "no answer in 5 s" }, record.value)._tag
)

// Contested, the CNAME right, no TXT record: a verified domain stays verified; a pending one does not verify.
for (const status of ["verified", "pending"] as const) {
  const { proved, verdict } = verdictWithOwnership(
    "docs.example.com",
    status,
    record,
    { _tag: "Verified", problems: [] },
    { requirement: { _tag: "Required" }, proof: { _tag: "Missing", found: [] }, wildcard: [] }
  )
  console.log(
    status,
    verdict._tag,
    verdict.problems.map((problem) => problem.code),
    proved
  )
}

// A claim of example.com: pending until its record is found, then every name under it is acme's.
const claim = newClaim(acme, Hostname.make("example.com"), token, now)
const proved = applyClaimCheck(claim, { _tag: "Found" }, now)
console.log(claim.status, proved.status, proved.nextCheckAt?.toISOString())
console.log(claimCovers(proved, "docs.example.com"), claimCovers(proved, "myexample.com"))
console.log(ownershipRequirement(rival, { holders: [], releases: [], claims: [proved] }, now))

// The name looked up to find a wildcard record: none above an apex.
console.log(wildcardProbeName("docs.example.com", "k3x9q"), wildcardProbeName("example.com", "k3x9q"))

// Output:
// [ 'NotRequired', 'Required', 'Required', 'NotRequired' ]
// _petstore-challenge.docs.example.com petstore-verification=5f0c2a9e7b3d41c8a6e2f0b9d7c5a3e1
// Found Missing Unknown
// verified Verified [ 'ownership_required' ] false
// pending Unverified [ 'ownership_required' ] false
// pending verified 2026-11-27T09:00:00.000Z
// true false
// { _tag: 'ClaimedByOther', apex: 'example.com' }
// k3x9q.example.com undefined
