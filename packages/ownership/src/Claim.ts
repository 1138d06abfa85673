/**
 * A claim of an apex by an account (contract section 4): proved by the TXT record
 * `_petstore-challenge.<apex>`, it keeps every name at or under the apex for that account. Other
 * accounts cannot add such a name (`domain_claimed`) and lose the ones they have (`ownership_lost`).
 * A proved claim is rechecked daily and lapses (back to `pending`) when its record is gone; a lookup
 * that gets no answer keeps it as it is. Claims are per account: another account's claim is never
 * shown.
 */

import {
  DnsName,
  Hostname,
  type OwnershipToken,
  ownershipRecordName,
  ownershipRecordValue
} from "@petstore/domains"
import { AccountName, firstVersion, StoredVersion, Timestamp } from "@petstore/kernel"
import { Duration, Schema } from "effect"
import type { OwnershipProof } from "./Ownership.js"

export const ClaimStatus = Schema.Literals(["pending", "verified"])
export type ClaimStatus = typeof ClaimStatus.Type

// A class's struct carries its identifier too: JSON Schema names a class by its encoded side.
export class ClaimRecord extends Schema.Class<ClaimRecord>("ClaimRecord")(
  Schema.Struct({
    name: Schema.String,
    value: Schema.String
  }).annotate({ identifier: "ClaimRecord" })
) {}

const claimFields = {
  apex: Hostname,
  status: ClaimStatus,
  txt: ClaimRecord,
  /** When the claim was last proved; null while pending. */
  verifiedAt: Schema.NullOr(Timestamp),
  /** When its record was last looked up (by Verify or the daily recheck); null: never yet. */
  lastCheckedAt: Schema.NullOr(Timestamp)
}

export class Claim extends Schema.Class<Claim>("Claim")(
  Schema.Struct({
    ...claimFields,
    account: AccountName,
    createdAt: Timestamp,
    /** When the worker rechecks it; null: not until Verify is clicked. */
    nextCheckAt: Schema.NullOr(Timestamp),
    /** The stored claim's write count, as read: every write is conditional on it (see `StoredVersion`). */
    version: StoredVersion
  }).annotate({ identifier: "Claim" })
) {}

/** A claim as its account sees it (contract section 4, `Claim`). */
export const ClaimResource = Schema.Struct(claimFields).annotate({ identifier: "ClaimResource" })
export type ClaimResource = typeof ClaimResource.Type

/** How often a proved claim is checked again. */
export const claimRecheckInterval = Duration.hours(24)

/** How soon a recheck that got no answer from DNS is tried again. */
export const claimRetryAfterDnsError = Duration.hours(1)

/** A new claim: pending until Verify finds its record. */
export const newClaim = (account: AccountName, apex: Hostname, token: OwnershipToken, now: Date): Claim =>
  new Claim({
    apex,
    status: "pending",
    txt: new ClaimRecord({ name: ownershipRecordName(apex), value: ownershipRecordValue(token) }),
    verifiedAt: null,
    account,
    createdAt: now,
    lastCheckedAt: null,
    nextCheckAt: null,
    version: firstVersion
  })

/** Whether the claim's apex is `hostname` or one of its parents. */
export const claimCovers = (claim: Pick<Claim, "apex">, hostname: string): boolean =>
  DnsName.isAtOrUnder(hostname, claim.apex)

const later = (now: Date, interval: Duration.Duration) =>
  new Date(now.getTime() + Duration.toMillis(interval))

/** The claim after a check of its record at `now`. */
export const applyClaimCheck = (claim: Claim, proof: OwnershipProof, now: Date): Claim => {
  switch (proof._tag) {
    case "Found":
      return new Claim({
        ...claim,
        status: "verified",
        verifiedAt: claim.verifiedAt ?? now,
        lastCheckedAt: now,
        nextCheckAt: later(now, claimRecheckInterval)
      })
    case "Missing":
      return new Claim({
        ...claim,
        status: "pending",
        verifiedAt: null,
        lastCheckedAt: now,
        nextCheckAt: null
      })
    case "Unknown":
      return new Claim({
        ...claim,
        lastCheckedAt: now,
        nextCheckAt: claim.status === "verified" ? later(now, claimRetryAfterDnsError) : null
      })
  }
}

/** Another account's proved claim of the same apex has lost to this one: it lapses. */
export const lapseClaim = (claim: Claim, now: Date): Claim =>
  new Claim({ ...claim, status: "pending", verifiedAt: null, lastCheckedAt: now, nextCheckAt: null })
