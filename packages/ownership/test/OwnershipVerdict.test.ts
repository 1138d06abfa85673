import { describe, expect, it } from "@effect/vitest"
import {
  type CustomDomainStatus,
  Hostname,
  OwnershipToken,
  ownershipRecord,
  Problem,
  type VerificationVerdict
} from "@petstore/domains"
import { type OwnershipObservation, type OwnershipProof, verdictWithOwnership } from "../src/index.js"

const hostname = "docs.example.com"
const record = ownershipRecord(hostname, OwnershipToken.make("0123456789abcdef0123456789abcdef"), true)
const wildcard = new Problem({ code: "wildcard_record", message: "Every name under example.com reaches it" })
const mismatch = new Problem({ code: "cname_mismatch", message: "docs.example.com is a CNAME to elsewhere" })
const dnsError = new Problem({ code: "dns_error", message: "The CNAME lookup did not get an answer" })

const verified: VerificationVerdict = { _tag: "Verified", problems: [] }
const unverified: VerificationVerdict = { _tag: "Unverified", problems: [mismatch] }
const inconclusive: VerificationVerdict = { _tag: "Inconclusive", problems: [dnsError] }

const found: OwnershipProof = { _tag: "Found" }
const missing: OwnershipProof = { _tag: "Missing", found: ["v=spf1 -all"] }
const unknown: OwnershipProof = { _tag: "Unknown", detail: "servfail: upstream failed" }

const notRequired = { _tag: "NotRequired" } as const
const required = { _tag: "Required" } as const
const byClaim = { _tag: "ProvedByClaim", apex: Hostname.make("example.com") } as const

const observed = (
  requirement: OwnershipObservation["requirement"],
  proof: OwnershipProof | undefined,
  problems: ReadonlyArray<Problem> = [wildcard]
): OwnershipObservation => ({ requirement, proof, wildcard: problems })

const outcome = (status: CustomDomainStatus, dns: VerificationVerdict, observation: OwnershipObservation) =>
  verdictWithOwnership(hostname, status, record, dns, observation)

const codes = (verdict: VerificationVerdict) => verdict.problems.map((problem) => problem.code)

describe("verdictWithOwnership, when the CNAME (or ALIAS) verifies", () => {
  it("uncontested: verified, with the wildcard advice, proving nothing", () => {
    expect(outcome("pending", verified, observed(notRequired, undefined))).toStrictEqual({
      verdict: { _tag: "Verified", problems: [wildcard] },
      proved: false
    })
    expect(outcome("pending", verified, observed(notRequired, undefined, []))).toStrictEqual({
      verdict: { _tag: "Verified", problems: [] },
      proved: false
    })
  })

  it("the account's proved claim: verified and proved, with no wildcard advice (the claim covers it)", () => {
    for (const status of ["pending", "verified", "failed"] as const) {
      expect(outcome(status, verified, observed(byClaim, undefined))).toStrictEqual({
        verdict: { _tag: "Verified", problems: [] },
        proved: true
      })
    }
  })

  it("contested, the TXT record found: verified and proved (the other accounts lose the name)", () => {
    for (const status of ["pending", "verified", "failed"] as const) {
      expect(outcome(status, verified, observed(required, found))).toStrictEqual({
        verdict: { _tag: "Verified", problems: [wildcard] },
        proved: true
      })
    }
  })

  it("contested, the TXT record not looked up: verified, but nothing proved", () => {
    expect(outcome("pending", verified, observed(required, undefined))).toStrictEqual({
      verdict: { _tag: "Verified", problems: [wildcard] },
      proved: false
    })
  })

  it("contested, no TXT record, a pending or failed domain: unverified with ownership_required", () => {
    for (const status of ["pending", "failed"] as const) {
      const { proved, verdict } = outcome(status, verified, observed(required, missing))
      expect(proved).toBe(false)
      expect(verdict._tag).toBe("Unverified")
      // The wildcard does not matter while the name is not the domain's.
      expect(codes(verdict)).toStrictEqual(["ownership_required"])
      expect(verdict.problems[0]?.message).toContain(record.name)
      expect(verdict.problems[0]?.found).toStrictEqual(['TXT "v=spf1 -all"'])
    }
  })

  it("contested, the TXT lookup without answer, a pending domain: inconclusive, retried", () => {
    const { proved, verdict } = outcome("pending", verified, observed(required, unknown))
    expect(proved).toBe(false)
    expect(verdict._tag).toBe("Inconclusive")
    expect(codes(verdict)).toStrictEqual(["ownership_required"])
    expect(verdict.problems[0]?.message).toContain("servfail: upstream failed")
  })

  // A squatter adding the name must not take the real owner's site down: only proof does.
  it("contested without proof, a verified domain stays verified, told to create the record", () => {
    for (const proof of [missing, unknown]) {
      const { proved, verdict } = outcome("verified", verified, observed(required, proof))
      expect(proved).toBe(false)
      expect(verdict._tag).toBe("Verified")
      expect(codes(verdict)).toStrictEqual(["ownership_required", "wildcard_record"])
    }
  })
})

describe("verdictWithOwnership, when the CNAME (or ALIAS) does not verify", () => {
  it("keeps the DNS verdict, and proves nothing, even with the TXT record found", () => {
    for (const dns of [unverified, inconclusive]) {
      for (const observation of [
        observed(notRequired, undefined),
        observed(byClaim, undefined),
        observed(required, found),
        observed(required, undefined)
      ]) {
        expect(outcome("pending", dns, observation)).toStrictEqual({ verdict: dns, proved: false })
      }
    }
  })

  it("adds ownership_required when the name is contested and the TXT record is not there", () => {
    const { proved, verdict } = outcome("pending", unverified, observed(required, missing))
    expect(proved).toBe(false)
    expect(verdict._tag).toBe("Unverified")
    expect(codes(verdict)).toStrictEqual(["cname_mismatch", "ownership_required"])
  })

  it("adds ownership_required to an inconclusive verdict, which stays inconclusive", () => {
    const { verdict } = outcome("verified", inconclusive, observed(required, unknown))
    expect(verdict._tag).toBe("Inconclusive")
    expect(codes(verdict)).toStrictEqual(["dns_error", "ownership_required"])
  })
})
