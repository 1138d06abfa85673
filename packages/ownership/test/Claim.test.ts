import { describe, expect, it } from "@effect/vitest"
import { Hostname, OwnershipToken } from "@petstore/domains"
import { AccountName } from "@petstore/kernel"
import { Duration, Schema } from "effect"
import {
  applyClaimCheck,
  type Claim,
  ClaimResource,
  claimCovers,
  claimRecheckInterval,
  claimRetryAfterDnsError,
  lapseClaim,
  newClaim
} from "../src/index.js"

const hour = 3_600_000
const t0 = new Date("2027-03-01T12:00:00.000Z")
const at = (offset: number) => new Date(t0.getTime() + offset)
const acme = AccountName.make("acme")
const token = OwnershipToken.make("0123456789abcdef0123456789abcdef")
const claim = newClaim(acme, Hostname.make("example.com"), token, t0)
const proved = applyClaimCheck(claim, { _tag: "Found" }, at(hour))

const state = (checked: Claim) => ({
  status: checked.status,
  verifiedAt: checked.verifiedAt,
  lastCheckedAt: checked.lastCheckedAt,
  nextCheckAt: checked.nextCheckAt
})

describe("newClaim", () => {
  it("is pending, with the TXT record of the account's token, checked only when Verify is clicked", () => {
    expect(claim.apex).toBe("example.com")
    expect(claim.account).toBe("acme")
    expect({ ...claim.txt }).toStrictEqual({
      name: "_petstore-challenge.example.com",
      value: "petstore-verification=0123456789abcdef0123456789abcdef"
    })
    expect(state(claim)).toStrictEqual({
      status: "pending",
      verifiedAt: null,
      lastCheckedAt: null,
      nextCheckAt: null
    })
    expect(claim.createdAt).toStrictEqual(t0)
  })

  it("encodes to the contract's Claim, with its last check, without its account, schedule or version", () => {
    expect(Schema.encodeSync(ClaimResource)(proved)).toStrictEqual({
      apex: "example.com",
      status: "verified",
      txt: {
        name: "_petstore-challenge.example.com",
        value: "petstore-verification=0123456789abcdef0123456789abcdef"
      },
      verifiedAt: "2027-03-01T13:00:00.000Z",
      lastCheckedAt: "2027-03-01T13:00:00.000Z"
    })
  })
})

describe("applyClaimCheck", () => {
  it("Found: verified since now, rechecked 24 hours later", () => {
    expect(Duration.toMillis(claimRecheckInterval)).toBe(24 * hour)
    expect(state(proved)).toStrictEqual({
      status: "verified",
      verifiedAt: at(hour),
      lastCheckedAt: at(hour),
      nextCheckAt: at(25 * hour)
    })
  })

  it("Found on a recheck keeps the first verifiedAt", () => {
    const rechecked = applyClaimCheck(proved, { _tag: "Found" }, at(25 * hour))
    expect(state(rechecked)).toStrictEqual({
      status: "verified",
      verifiedAt: at(hour),
      lastCheckedAt: at(25 * hour),
      nextCheckAt: at(49 * hour)
    })
  })

  it("Missing lapses a proved claim: pending, no verifiedAt, not rechecked by the worker", () => {
    const lapsed = applyClaimCheck(proved, { _tag: "Missing", found: ["v=spf1 -all"] }, at(25 * hour))
    expect(state(lapsed)).toStrictEqual({
      status: "pending",
      verifiedAt: null,
      lastCheckedAt: at(25 * hour),
      nextCheckAt: null
    })
  })

  it("Missing leaves a pending claim pending", () => {
    const checked = applyClaimCheck(claim, { _tag: "Missing", found: [] }, at(hour))
    expect(state(checked)).toStrictEqual({
      status: "pending",
      verifiedAt: null,
      lastCheckedAt: at(hour),
      nextCheckAt: null
    })
  })

  it("Unknown keeps a proved claim as it is and retries in 1 hour", () => {
    expect(Duration.toMillis(claimRetryAfterDnsError)).toBe(hour)
    const retried = applyClaimCheck(proved, { _tag: "Unknown", detail: "timeout: no answer" }, at(25 * hour))
    expect(state(retried)).toStrictEqual({
      status: "verified",
      verifiedAt: at(hour),
      lastCheckedAt: at(25 * hour),
      nextCheckAt: at(26 * hour)
    })
  })

  it("Unknown leaves a pending claim pending, with no retry (Verify is clicked again)", () => {
    const checked = applyClaimCheck(claim, { _tag: "Unknown", detail: "timeout: no answer" }, at(hour))
    expect(state(checked)).toStrictEqual({
      status: "pending",
      verifiedAt: null,
      lastCheckedAt: at(hour),
      nextCheckAt: null
    })
  })

  it("changes neither the apex, the account, the record nor the creation time", () => {
    for (const checked of [proved, applyClaimCheck(proved, { _tag: "Missing", found: [] }, at(2 * hour))]) {
      expect(checked.apex).toBe(claim.apex)
      expect(checked.account).toBe(claim.account)
      expect(checked.txt).toStrictEqual(claim.txt)
      expect(checked.createdAt).toStrictEqual(claim.createdAt)
    }
  })
})

describe("lapseClaim", () => {
  it("makes a proved claim pending, as a recheck that finds no record does", () => {
    expect(state(lapseClaim(proved, at(2 * hour)))).toStrictEqual({
      status: "pending",
      verifiedAt: null,
      lastCheckedAt: at(2 * hour),
      nextCheckAt: null
    })
  })
})

describe("claimCovers", () => {
  it.each(["example.com", "docs.example.com", "a.b.docs.example.com"])("covers %s", (hostname) => {
    expect(claimCovers(claim, hostname)).toBe(true)
  })

  it.each(["myexample.com", "example.com.evil.net", "example.org", "com", "docs.example.co.uk"])(
    "does not cover %s",
    (hostname) => {
      expect(claimCovers(claim, hostname)).toBe(false)
    }
  )
})
