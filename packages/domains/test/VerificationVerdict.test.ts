import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import {
  type DnsAnswer,
  type DnsObservation,
  type HostnameKind,
  type ProblemCode,
  type VerificationVerdict,
  verdictFromDns
} from "../src/index.js"

const target = "cname.docs-platform.net"
const subdomain = "docs.example.com"
const apex = "example.com"
const targetV4 = "203.0.113.10"
const targetV4b = "203.0.113.11"
const targetV6 = "2001:db8::10"

const records = (first: string, ...rest: Array<string>): DnsAnswer<string> => ({
  _tag: "Records",
  records: [first, ...rest]
})
const nxdomain: DnsAnswer<string> = { _tag: "NoRecords", reason: "nxdomain" }
const nodata: DnsAnswer<string> = { _tag: "NoRecords", reason: "nodata" }
const timeout: DnsAnswer<string> = { _tag: "Failure", reason: "timeout", detail: "no answer in 5s" }
const servfail: DnsAnswer<string> = {
  _tag: "Failure",
  reason: "servfail",
  detail: "SERVFAIL from 192.0.2.53"
}
const refused: DnsAnswer<string> = { _tag: "Failure", reason: "refused", detail: "REFUSED" }
const targetAddresses = records(targetV4, targetV4b, targetV6)

const observe = (
  cname: DnsAnswer<string>,
  addresses: DnsAnswer<string>,
  target: DnsAnswer<string> = targetAddresses
): DnsObservation => ({ cname, addresses, targetAddresses: target })

interface Expectation {
  readonly tag: VerificationVerdict["_tag"]
  readonly code?: ProblemCode
  readonly found?: ReadonlyArray<string>
  /** Substrings the message must contain: what was found, and what is required. */
  readonly says?: ReadonlyArray<string>
}

type Row = readonly [string, HostnameKind, DnsObservation, Expectation]

const subdomainRows: ReadonlyArray<Row> = [
  // Rule 1
  ["a CNAME to the target", "subdomain", observe(records(target), nodata), { tag: "Verified" }],
  [
    "a CNAME to the target in capitals with a trailing dot",
    "subdomain",
    observe(records("CNAME.Docs-Platform.NET."), nodata),
    { tag: "Verified" }
  ],
  [
    "a CNAME to the target, the addresses it leads to",
    "subdomain",
    observe(records(target), records(targetV4, targetV6)),
    { tag: "Verified" }
  ],
  [
    // The address lookup only matters when there is no CNAME.
    "a CNAME to the target, the address lookup timing out",
    "subdomain",
    observe(records(target), timeout),
    { tag: "Verified" }
  ],
  // Rule 2
  [
    "a CNAME to another name",
    "subdomain",
    observe(records("other.example.net"), records("192.0.2.7")),
    {
      tag: "Unverified",
      code: "cname_mismatch",
      found: ["CNAME other.example.net"],
      says: ["other.example.net", target, subdomain]
    }
  ],
  [
    "a CNAME to a name below the target",
    "subdomain",
    observe(records(`x.${target}`), nodata),
    { tag: "Unverified", code: "cname_mismatch", found: [`CNAME x.${target}`], says: [`x.${target}`, target] }
  ],
  [
    "a CNAME to a name the target merely ends with",
    "subdomain",
    observe(records("docs-platform.net"), nodata),
    { tag: "Unverified", code: "cname_mismatch", found: ["CNAME docs-platform.net"], says: [target] }
  ],
  // Rule 3
  [
    "no CNAME but an A record",
    "subdomain",
    observe(nodata, records("192.0.2.1")),
    {
      tag: "Unverified",
      code: "conflicting_record",
      found: ["A 192.0.2.1"],
      says: ["192.0.2.1", "CNAME", target, subdomain]
    }
  ],
  [
    "no CNAME but A and AAAA records",
    "subdomain",
    observe(nodata, records("192.0.2.1", "2001:db8::1")),
    {
      tag: "Unverified",
      code: "conflicting_record",
      found: ["A 192.0.2.1", "AAAA 2001:db8::1"],
      says: ["192.0.2.1", "2001:db8::1", "CNAME", target]
    }
  ],
  [
    "no CNAME but the target's own addresses (an A record copied from the target)",
    "subdomain",
    observe(nodata, records(targetV4)),
    { tag: "Unverified", code: "conflicting_record", found: [`A ${targetV4}`], says: [targetV4, target] }
  ],
  // Rule 5
  [
    "nothing (NXDOMAIN)",
    "subdomain",
    observe(nxdomain, nxdomain),
    { tag: "Unverified", code: "record_not_found", says: ["No record", subdomain, "CNAME", target] }
  ],
  [
    "nothing (NODATA)",
    "subdomain",
    observe(nodata, nodata),
    { tag: "Unverified", code: "record_not_found", says: ["No record", subdomain, "CNAME", target] }
  ],
  // Rule 6
  [
    "a CNAME lookup timing out",
    "subdomain",
    observe(timeout, nodata),
    { tag: "Inconclusive", code: "dns_error", says: ["CNAME", "timeout", "no answer in 5s"] }
  ],
  [
    "a CNAME lookup with SERVFAIL",
    "subdomain",
    observe(servfail, nodata),
    { tag: "Inconclusive", code: "dns_error", says: ["CNAME", "servfail"] }
  ],
  [
    "a CNAME lookup with SERVFAIL while A records answer",
    "subdomain",
    observe(servfail, records("192.0.2.1")),
    { tag: "Inconclusive", code: "dns_error", says: ["servfail"] }
  ],
  [
    "a refused CNAME lookup",
    "subdomain",
    observe(refused, nodata),
    { tag: "Inconclusive", code: "dns_error", says: ["refused"] }
  ],
  [
    "no CNAME, the address lookup timing out",
    "subdomain",
    observe(nodata, timeout),
    { tag: "Inconclusive", code: "dns_error", says: ["address", "timeout"] }
  ],
  [
    "no CNAME, the address lookup with SERVFAIL",
    "subdomain",
    observe(nxdomain, servfail),
    { tag: "Inconclusive", code: "dns_error", says: ["address", "servfail"] }
  ]
]

const apexRows: ReadonlyArray<Row> = [
  // Rule 4
  [
    "a CNAME at the apex, even to the target",
    "apex",
    observe(records(target), records(targetV4)),
    {
      tag: "Unverified",
      code: "apex_requires_alias",
      found: [`CNAME ${target}`],
      says: ["CNAME", target, "ALIAS", apex]
    }
  ],
  [
    "a CNAME at the apex to another name",
    "apex",
    observe(records("other.example.net"), nodata),
    {
      tag: "Unverified",
      code: "apex_requires_alias",
      found: ["CNAME other.example.net"],
      says: ["other.example.net", "ALIAS", target]
    }
  ],
  [
    "the target's addresses exactly",
    "apex",
    observe(nodata, records(targetV4, targetV4b, targetV6)),
    { tag: "Verified" }
  ],
  ["a subset of the target's addresses", "apex", observe(nodata, records(targetV4b)), { tag: "Verified" }],
  [
    "the target's IPv6 address in capitals",
    "apex",
    observe(nxdomain, records("2001:DB8::10")),
    { tag: "Verified" }
  ],
  [
    "a foreign address",
    "apex",
    observe(nodata, records("192.0.2.1")),
    {
      tag: "Unverified",
      code: "conflicting_record",
      found: ["A 192.0.2.1"],
      says: ["192.0.2.1", targetV4, targetV4b, targetV6, target, "ALIAS"]
    }
  ],
  [
    "the target's addresses and a foreign one",
    "apex",
    observe(nodata, records(targetV4, "2001:db8::99")),
    {
      tag: "Unverified",
      code: "conflicting_record",
      found: [`A ${targetV4}`, "AAAA 2001:db8::99"],
      says: ["2001:db8::99", targetV4, targetV6, target]
    }
  ],
  // Rule 5
  [
    "nothing (NXDOMAIN)",
    "apex",
    observe(nxdomain, nxdomain),
    { tag: "Unverified", code: "record_not_found", says: ["No record", apex, "ALIAS", target] }
  ],
  [
    "nothing (NODATA)",
    "apex",
    observe(nodata, nodata),
    { tag: "Unverified", code: "record_not_found", says: ["No record", apex, "ALIAS", target] }
  ],
  [
    // Nothing at the apex is definite; the target's addresses do not matter then.
    "nothing, while the target lookup fails",
    "apex",
    observe(nodata, nodata, timeout),
    { tag: "Unverified", code: "record_not_found" }
  ],
  // Rule 6
  [
    "a CNAME lookup timing out",
    "apex",
    observe(timeout, records(targetV4)),
    { tag: "Inconclusive", code: "dns_error", says: ["timeout"] }
  ],
  [
    "a CNAME lookup with SERVFAIL",
    "apex",
    observe(servfail, nodata),
    { tag: "Inconclusive", code: "dns_error", says: ["servfail"] }
  ],
  [
    "an address lookup timing out",
    "apex",
    observe(nodata, timeout),
    { tag: "Inconclusive", code: "dns_error", says: ["timeout"] }
  ],
  [
    "an address lookup with SERVFAIL",
    "apex",
    observe(nxdomain, servfail),
    { tag: "Inconclusive", code: "dns_error", says: ["servfail"] }
  ],
  [
    "the target's address lookup timing out",
    "apex",
    observe(nodata, records(targetV4), timeout),
    { tag: "Inconclusive", code: "dns_error", says: [target, "timeout"] }
  ],
  [
    "the target's address lookup with SERVFAIL, even with a foreign address",
    "apex",
    observe(nodata, records("192.0.2.1"), servfail),
    { tag: "Inconclusive", code: "dns_error", says: [target, "servfail"] }
  ],
  [
    "the target having no addresses",
    "apex",
    observe(nodata, records(targetV4), nxdomain),
    { tag: "Inconclusive", code: "dns_error", says: [target] }
  ]
]

const check = (kind: HostnameKind, observation: DnsObservation, expected: Expectation) => {
  const hostname = kind === "apex" ? apex : subdomain
  const verdict = verdictFromDns(hostname, kind, target, observation)
  expect(verdict._tag).toBe(expected.tag)
  // DNS alone gives a verified domain no advice: that comes from the ownership rules.
  if (verdict._tag === "Verified") {
    expect(verdict.problems).toStrictEqual([])
    return
  }
  expect(verdict.problems).toHaveLength(1)
  const [problem] = verdict.problems
  expect(problem?.code).toBe(expected.code)
  expect(problem?.found).toStrictEqual(expected.found)
  for (const part of expected.says ?? []) expect(problem?.message).toContain(part)
}

describe("verdictFromDns, subdomain", () => {
  it.each(subdomainRows)("%s → as the contract says", (_, kind, observation, expected) =>
    check(kind, observation, expected)
  )
})

describe("verdictFromDns, apex", () => {
  it.each(apexRows)("%s → as the contract says", (_, kind, observation, expected) =>
    check(kind, observation, expected)
  )
})

describe("verdictFromDns, across kinds", () => {
  it.each(["subdomain", "apex"] as const)("treats NXDOMAIN and NODATA alike (%s)", (kind) => {
    const hostname = kind === "apex" ? apex : subdomain
    const answers = [nxdomain, nodata]
    const verdicts = answers.flatMap((cname) =>
      answers.map((addresses) => verdictFromDns(hostname, kind, target, observe(cname, addresses)))
    )
    for (const verdict of verdicts) expect(verdict).toStrictEqual(verdicts[0])
  })

  it("a subdomain ignores the target's addresses; only an apex needs them", () => {
    for (const targetAnswer of [targetAddresses, nxdomain, timeout]) {
      expect(
        verdictFromDns(subdomain, "subdomain", target, observe(records(target), nodata, targetAnswer))
      ).toStrictEqual({ _tag: "Verified", problems: [] })
      expect(
        verdictFromDns(subdomain, "subdomain", target, observe(nodata, records("192.0.2.1"), targetAnswer))
          ._tag
      ).toBe("Unverified")
    }
  })

  it("the same records verify a subdomain but not an apex, and the other way round", () => {
    expect(verdictFromDns(apex, "apex", target, observe(records(target), records(targetV4)))._tag).toBe(
      "Unverified"
    )
    expect(
      verdictFromDns(subdomain, "subdomain", target, observe(records(target), records(targetV4)))._tag
    ).toBe("Verified")
    expect(verdictFromDns(apex, "apex", target, observe(nodata, records(targetV4)))._tag).toBe("Verified")
    expect(verdictFromDns(subdomain, "subdomain", target, observe(nodata, records(targetV4)))._tag).toBe(
      "Unverified"
    )
  })
})

const address = fc.oneof(fc.ipV4(), fc.constantFrom(targetV4, targetV4b, targetV6, "2001:db8::1"))
const name = fc.oneof(
  fc.domain(),
  fc.constantFrom(target, `${target}.`, target.toUpperCase(), `x.${target}`, "docs-platform.net")
)
const answerOf = <A extends string>(value: fc.Arbitrary<A>): fc.Arbitrary<DnsAnswer<string>> =>
  fc.oneof(
    fc
      .array(value, { minLength: 1, maxLength: 4 })
      .map(([first, ...rest]) => records(first as string, ...rest)),
    fc.constantFrom(nxdomain, nodata, timeout, servfail, refused)
  )
const observation = fc.record({
  cname: answerOf(name),
  addresses: answerOf(address),
  targetAddresses: answerOf(address)
})
const kind = fc.constantFrom<HostnameKind>("subdomain", "apex")

describe("verdictFromDns properties", () => {
  it("is Inconclusive whenever the CNAME lookup got no answer", () => {
    fc.assert(
      fc.property(kind, observation, fc.constantFrom(timeout, servfail, refused), (kind, seen, failure) => {
        const verdict = verdictFromDns(apex, kind, target, { ...seen, cname: failure })
        expect(verdict._tag).toBe("Inconclusive")
      })
    )
  })

  it("reports dns_error exactly when Inconclusive, and one problem unless Verified", () => {
    fc.assert(
      fc.property(kind, observation, (kind, seen) => {
        const verdict = verdictFromDns(kind === "apex" ? apex : subdomain, kind, target, seen)
        if (verdict._tag === "Verified") return
        expect(verdict.problems).toHaveLength(1)
        const codes = verdict.problems.map((problem) => problem.code)
        if (verdict._tag === "Inconclusive") expect(codes).toStrictEqual(["dns_error"])
        else expect(codes).not.toContain("dns_error")
      }),
      { numRuns: 1000 }
    )
  })

  it("names every record it found in the message, and what is required", () => {
    fc.assert(
      fc.property(kind, observation, (kind, seen) => {
        const hostname = kind === "apex" ? apex : subdomain
        const verdict = verdictFromDns(hostname, kind, target, seen)
        if (verdict._tag !== "Unverified") return
        for (const problem of verdict.problems) {
          expect(problem.message).toContain(target)
          expect(problem.message).toContain(hostname)
          for (const record of problem.found ?? []) {
            expect(record).toMatch(/^(A|AAAA|CNAME) \S+$/)
            expect(problem.message).toContain(record.split(" ")[1])
          }
        }
      }),
      { numRuns: 1000 }
    )
  })

  it("verifies a subdomain whose CNAME is the target, whatever else DNS says", () => {
    fc.assert(
      fc.property(
        observation,
        fc.constantFrom(target, `${target}.`, target.toUpperCase(), "Cname.Docs-Platform.Net."),
        (seen, value) => {
          expect(
            verdictFromDns(subdomain, "subdomain", target, { ...seen, cname: records(value) })
          ).toStrictEqual({
            _tag: "Verified",
            problems: []
          })
        }
      )
    )
  })

  it("verifies an apex exactly when it has no CNAME and only the target's addresses", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(nxdomain, nodata),
        fc.array(address, { minLength: 1, maxLength: 4 }),
        (cname, found) => {
          const [first, ...rest] = found
          const verdict = verdictFromDns(
            apex,
            "apex",
            target,
            observe(cname, records(first as string, ...rest))
          )
          const allTargets = found.every((a) => [targetV4, targetV4b, targetV6].includes(a.toLowerCase()))
          expect(verdict._tag).toBe(allTargets ? "Verified" : "Unverified")
        }
      )
    )
  })
})
