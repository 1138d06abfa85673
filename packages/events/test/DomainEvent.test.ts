/**
 * Which events a change of a domain makes (`domainEventTypes`): the story every store tells in its
 * outbox, so each case here is one the owner could see in `GET …/events`.
 */

import { delayed, issuanceFailed, issued, renewCertificate } from "@petstore/certificates"
import { applyVerdict, type CustomDomain, loseOwnership, makeCustomDomain, Problem } from "@petstore/domains"
import { addedDomain } from "@petstore/domains/testing"
import { ownershipLostProblem } from "@petstore/ownership"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { DomainEventId, domainEventTypes } from "../src/index.js"

const t0 = new Date("2027-03-01T12:00:00.000Z")
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000)
const target = "cname.docs-platform.net"

const notFound = new Problem({
  code: "record_not_found",
  message: "No record was found at docs.example.com."
})
const mismatch = new Problem({ code: "cname_mismatch", message: "docs.example.com has a CNAME elsewhere." })

const pending = addedDomain("docs.example.com", "handbook", target, t0)
const unverified = (domain: CustomDomain, problem: Problem, minutes: number) =>
  applyVerdict(domain, { _tag: "Unverified", problems: [problem] }, at(minutes))
const verified = applyVerdict(pending, { _tag: "Verified", problems: [] }, at(1))
const withCertificate = (domain: CustomDomain, certificate: CustomDomain["certificate"]) =>
  makeCustomDomain({ ...domain, certificate })
const issuedAt = (domain: CustomDomain, minutes: number) =>
  withCertificate(domain, issued(domain.certificate, { issuedAt: at(minutes), expiresAt: at(90 * 24 * 60) }))

describe("domainEventTypes", () => {
  it("an addition is domain.added, a removal domain.removed, nothing before and after is nothing", () => {
    expect(domainEventTypes(undefined, pending)).toEqual(["domain.added"])
    expect(domainEventTypes(verified, undefined)).toEqual(["domain.removed"])
    expect(domainEventTypes(undefined, undefined)).toEqual([])
  })

  it("verification is domain.verified; its certificate asked for at once adds nothing more", () => {
    expect(verified.certificate.status).toBe("pending")
    expect(domainEventTypes(pending, verified)).toEqual(["domain.verified"])
  })

  it("a check that changes nothing the owner sees makes no event", () => {
    const first = unverified(pending, notFound, 1)
    const again = unverified(first, notFound, 2)
    expect(again.verification.lastCheckedAt).not.toEqual(first.verification.lastCheckedAt)
    expect(domainEventTypes(first, again)).toEqual([])
  })

  it("other problems with the same status are domain.problems_changed", () => {
    const first = unverified(pending, notFound, 1)
    expect(domainEventTypes(pending, first)).toEqual(["domain.problems_changed"])
    expect(domainEventTypes(first, unverified(first, mismatch, 2))).toEqual(["domain.problems_changed"])
  })

  it("timing out and losing the name to another account are domain.failed", () => {
    const timedOut = unverified(pending, notFound, 48 * 60 + 1)
    expect(timedOut.status).toBe("failed")
    expect(domainEventTypes(pending, timedOut)).toEqual(["domain.failed"])
    const lost = loseOwnership(verified, ownershipLostProblem("docs.example.com", "proved"), at(5))
    expect(domainEventTypes(verified, lost)).toEqual(["domain.failed"])
  })

  it("the certificate's steps: issued, delayed, failed, renewed, renewal failed", () => {
    const issuedOne = issuedAt(verified, 3)
    expect(domainEventTypes(verified, issuedOne)).toEqual(["certificate.issued"])
    const late = withCertificate(verified, delayed(verified.certificate, [notFound]))
    expect(domainEventTypes(verified, late)).toEqual(["certificate.delayed"])
    expect(domainEventTypes(late, issuedAt(late, 40))).toEqual(["certificate.issued"])
    const refused = withCertificate(verified, issuanceFailed(verified.certificate, "CAA forbids it"))
    expect(domainEventTypes(verified, refused)).toEqual(["certificate.failed"])

    const renewing = renewCertificate(issuedOne, at(60 * 24 * 60))
    expect(renewing.certificate.status).toBe("issued")
    expect(domainEventTypes(issuedOne, issuedAt(renewing, 60 * 24 * 60 + 2))).toEqual(["certificate.renewed"])
    const refusedRenewal = withCertificate(issuedOne, {
      ...issuedOne.certificate,
      problems: issuanceFailed(issuedOne.certificate, "rate limited").problems
    })
    expect(domainEventTypes(issuedOne, refusedRenewal)).toEqual(["certificate.renewal_failed"])
  })

  it("a change of status and certificate at once tells both, the domain's first", () => {
    const issuedOne = issuedAt(verified, 3)
    const lost = loseOwnership(issuedOne, ownershipLostProblem("docs.example.com", "proved"), at(5))
    const types = domainEventTypes(issuedOne, lost)
    expect(types[0]).toBe("domain.failed")
    expect(types).not.toContain("domain.problems_changed")
  })
})

describe("DomainEventId", () => {
  it("is the decimal text of a positive number, nothing else", () => {
    const decode = Schema.decodeUnknownExit(DomainEventId)
    for (const good of ["1", "42", "9223372036854775807"]) expect(decode(good)._tag).toBe("Success")
    for (const bad of ["0", "01", "-1", "1.5", "1e3", "", " 1", "abc", "99999999999999999999"]) {
      expect(decode(bad)._tag, bad).toBe("Failure")
    }
  })
})
