import { describe, expect, it } from "@effect/vitest"
import type { VerificationVerdict } from "@petstore/domains"
import { Certificate, type CertificateStatus, Problem, restartIssuance } from "@petstore/domains"
import { Duration, Effect, Option } from "effect"
import {
  CertificateDelay,
  certificateDelayAfter,
  delayed,
  diagnoseDelay,
  isRetryable,
  issuanceFailed,
  issued,
  needsRenewal,
  renewBefore,
  withFindings
} from "../src/index.js"

const minute = 60 * 1000
const day = 24 * 60 * minute
const t0 = new Date("2027-03-01T12:00:00.000Z")
const at = (offset: number) => new Date(t0.getTime() + offset)
const expiresAt = at(90 * day)

const certificate = (status: CertificateStatus, problems: ReadonlyArray<Problem> = []) =>
  new Certificate({
    status,
    issuedAt: status === "issued" ? t0 : null,
    expiresAt: status === "issued" ? expiresAt : null,
    problems
  })

const mismatch = new Problem({
  code: "cname_mismatch",
  message: "docs.example.com has a CNAME to old.example.net; it must point to cname.docs-platform.net.",
  found: ["CNAME old.example.net"]
})
const conflicting = new Problem({
  code: "conflicting_record",
  message: "docs.example.com has address records (192.0.2.1), which block the CNAME.",
  found: ["A 192.0.2.1"]
})
const dnsError = new Problem({
  code: "dns_error",
  message: "The CNAME lookup did not get an answer (timeout: no reply); it will be retried."
})
const caaBlocks = new Problem({
  code: "caa_blocks_issuer",
  message: 'example.com has CAA records that do not allow letsencrypt.org: 0 issue "pki.goog".',
  found: ['CAA 0 issue "pki.goog"']
})

describe("constants", () => {
  it("delay after 30 minutes, renew 30 days before expiry", () => {
    expect(Duration.toMillis(certificateDelayAfter)).toBe(30 * minute)
    expect(Duration.toMillis(renewBefore)).toBe(30 * day)
  })
})

describe("CertificateDelay", () => {
  it.effect("is 30 minutes when the application sets none", () =>
    Effect.gen(function* () {
      expect(Duration.toMillis(yield* CertificateDelay)).toBe(30 * minute)
    })
  )

  it.effect("is what the application provides", () =>
    Effect.gen(function* () {
      expect(Duration.toMillis(yield* CertificateDelay)).toBe(5 * minute)
    }).pipe(Effect.provideService(CertificateDelay, Duration.minutes(5)))
  )
})

describe("needsRenewal", () => {
  it.each([
    ["issued", 0, false],
    ["issued", 60 * day - 1, false],
    ["issued", 60 * day, true],
    ["issued", 90 * day, true],
    ["pending", 60 * day, false],
    ["delayed", 60 * day, false],
    ["failed", 60 * day, false],
    ["none", 60 * day, false]
  ] as const)("%s, %d ms after issuance (expires after 90 days): %s", (status, offset, due) => {
    expect(needsRenewal(certificate(status), at(offset))).toBe(due)
  })

  it("is not due for an issued certificate without an expiry date", () => {
    const noExpiry = new Certificate({ status: "issued", issuedAt: t0, expiresAt: null, problems: [] })
    expect(needsRenewal(noExpiry, at(365 * day))).toBe(false)
  })
})

describe("transitions", () => {
  it("issued: dates set, problems cleared", () => {
    const result = issued(certificate("delayed", [dnsError]), { issuedAt: t0, expiresAt })
    expect({ ...result }).toStrictEqual({ status: "issued", issuedAt: t0, expiresAt, problems: [] })
  })

  it("issuanceFailed: failed with one issuance_failed problem carrying the CA's message", () => {
    const result = issuanceFailed(
      certificate("pending"),
      "DNS problem: NXDOMAIN looking up A for docs.example.com"
    )
    expect(result.status).toBe("failed")
    expect(result.problems.map((problem) => problem.code)).toStrictEqual(["issuance_failed"])
    expect(result.problems[0]?.message).toContain("DNS problem: NXDOMAIN looking up A for docs.example.com")
    expect(result.problems[0]?.message).toContain("Re-verify")
  })

  it.each([
    ["with causes", [mismatch, caaBlocks]],
    ["without a cause found", []]
  ] as const)("delayed %s: delayed with exactly those problems", (_, problems) => {
    const result = delayed(certificate("pending"), problems)
    expect(result.status).toBe("delayed")
    expect(result.problems).toStrictEqual(problems)
    expect(result.issuedAt).toBeNull()
  })

  it.each(["delayed", "failed", "issued"] as const)(
    "restartIssuance from %s: pending, problems cleared, dates kept",
    (status) => {
      const before = certificate(status, status === "issued" ? [] : [caaBlocks])
      const result = restartIssuance(before)
      expect({ ...result }).toStrictEqual({
        status: "pending",
        issuedAt: before.issuedAt,
        expiresAt: before.expiresAt,
        problems: []
      })
    }
  )
})

describe("withFindings", () => {
  it.each(["pending", "delayed"] as const)(
    "on a %s certificate: exactly the findings, nothing else",
    (status) => {
      const result = withFindings(certificate(status, [dnsError]), [mismatch, caaBlocks])
      expect({ ...result }).toStrictEqual({
        status,
        issuedAt: null,
        expiresAt: null,
        problems: [mismatch, caaBlocks]
      })
    }
  )

  it.each(["pending", "delayed"] as const)(
    "on a %s certificate, nothing found: the problems cleared",
    (status) => {
      expect(withFindings(certificate(status, [caaBlocks]), []).problems).toStrictEqual([])
    }
  )

  it.each(["issued", "failed", "none"] as const)("on a %s certificate: unchanged", (status) => {
    const before = certificate(status, [dnsError])
    expect(withFindings(before, [caaBlocks])).toStrictEqual(before)
  })
})

describe("isRetryable (what Re-verify accepts)", () => {
  it.each([
    ["pending with a problem found", certificate("pending", [caaBlocks]), true],
    ["pending with a DNS lookup that got no answer", certificate("pending", [dnsError]), true],
    ["delayed with causes", certificate("delayed", [caaBlocks]), true],
    ["delayed without a cause found", certificate("delayed"), true],
    ["failed", certificate("failed", [caaBlocks]), true],
    ["pending with no problem found", certificate("pending"), true],
    ["issued", certificate("issued"), false],
    ["issued with a refused renewal shown", certificate("issued", [caaBlocks]), false],
    ["none", certificate("none"), false]
  ] as const)("%s: %s", (_, subject, retryable) => {
    expect(isRetryable(subject)).toBe(retryable)
  })
})

describe("diagnoseDelay", () => {
  const hostname = "docs.example.com"
  const verified: VerificationVerdict = { _tag: "Verified", problems: [] }
  const unverified: VerificationVerdict = { _tag: "Unverified", problems: [mismatch, conflicting] }
  const inconclusive: VerificationVerdict = { _tag: "Inconclusive", problems: [dnsError] }

  it("Verified and no CAA problem: no cause found", () => {
    expect(diagnoseDelay({ hostname, verdict: verified, caaProblem: Option.none() })).toStrictEqual([])
  })

  it("Verified with a CAA problem: that problem", () => {
    expect(diagnoseDelay({ hostname, verdict: verified, caaProblem: Option.some(caaBlocks) })).toStrictEqual([
      caaBlocks
    ])
  })

  it("Unverified: domain_no_longer_verifies, naming what was found and what is required", () => {
    const [problem, ...rest] = diagnoseDelay({ hostname, verdict: unverified, caaProblem: Option.none() })
    expect(rest).toStrictEqual([])
    expect(problem?.code).toBe("domain_no_longer_verifies")
    expect(problem?.message).toContain(hostname)
    expect(problem?.message).toContain(mismatch.message)
    expect(problem?.message).toContain(conflicting.message)
    expect(problem?.found).toStrictEqual(["CNAME old.example.net", "A 192.0.2.1"])
  })

  it("Unverified with nothing found: no `found` field", () => {
    const notFound = new Problem({
      code: "record_not_found",
      message: "No record was found at docs.example.com."
    })
    const [problem] = diagnoseDelay({
      hostname,
      verdict: { _tag: "Unverified", problems: [notFound] },
      caaProblem: Option.none()
    })
    expect(problem?.code).toBe("domain_no_longer_verifies")
    expect(problem !== undefined && "found" in problem).toBe(false)
  })

  it("Inconclusive: the dns_error as it is, never domain_no_longer_verifies", () => {
    const problems = diagnoseDelay({ hostname, verdict: inconclusive, caaProblem: Option.none() })
    expect(problems).toStrictEqual([dnsError])
  })

  it.each([
    ["Unverified", unverified, ["domain_no_longer_verifies", "caa_blocks_issuer"]],
    ["Inconclusive", inconclusive, ["dns_error", "caa_blocks_issuer"]]
  ] as const)("%s with a CAA problem: both, the CAA problem last", (_, verdict, codes) => {
    const problems = diagnoseDelay({ hostname, verdict, caaProblem: Option.some(caaBlocks) })
    expect(problems.map((problem) => problem.code)).toStrictEqual(codes)
    expect(problems.at(-1)).toStrictEqual(caaBlocks)
  })
})
