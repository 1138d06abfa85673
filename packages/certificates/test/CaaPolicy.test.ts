import { describe, expect, it } from "@effect/vitest"
import { CaaRecord, type DnsAnswer, DnsResolver } from "@petstore/domains"
import { Effect, Layer, Option } from "effect"
import fc from "fast-check"
import {
  type CaaLookup,
  type CaaVerdict,
  caaCandidates,
  caaProblem,
  checkCaa,
  decideCaa
} from "../src/index.js"

const ca = "letsencrypt.org"
const host = "docs.example.com"
const wildcardHost = "*.example.com"

const caa = (tag: string, value: string, critical = false) => new CaaRecord({ critical, tag, value })
const set = (first: CaaRecord, ...rest: Array<CaaRecord>): DnsAnswer<CaaRecord> => ({
  _tag: "Records",
  records: [first, ...rest]
})
const nxdomain: DnsAnswer<CaaRecord> = { _tag: "NoRecords", reason: "nxdomain" }
const nodata: DnsAnswer<CaaRecord> = { _tag: "NoRecords", reason: "nodata" }
const servfail: DnsAnswer<CaaRecord> = {
  _tag: "Failure",
  reason: "servfail",
  detail: "SERVFAIL from 192.0.2.53"
}
const timeout: DnsAnswer<CaaRecord> = { _tag: "Failure", reason: "timeout", detail: "no answer in 5s" }

/** The lookups of `hostname`'s candidates, in climbing order; names not given answer NODATA. */
const lookupsFor = (hostname: string, answers: Readonly<Record<string, DnsAnswer<CaaRecord>>>) =>
  caaCandidates(hostname).map((name): CaaLookup => ({ name, answer: answers[name] ?? nodata }))

const allowed = (at?: string): CaaVerdict => ({
  _tag: "Allowed",
  decidedAt: at === undefined ? Option.none() : Option.some(at)
})

interface Expectation {
  readonly tag: CaaVerdict["_tag"]
  /** The name whose answer decided, if any. */
  readonly at?: string
}

type Row = readonly [string, string, Readonly<Record<string, DnsAnswer<CaaRecord>>>, Expectation]

const rows: ReadonlyArray<Row> = [
  ["no CAA anywhere", host, {}, { tag: "Allowed" }],
  [
    "NXDOMAIN all the way up",
    host,
    { [host]: nxdomain, "example.com": nxdomain, com: nxdomain },
    { tag: "Allowed" }
  ],
  [
    "a record at the name allowing the CA",
    host,
    { [host]: set(caa("issue", ca)) },
    { tag: "Allowed", at: host }
  ],
  [
    "a record at the name naming another CA",
    host,
    { [host]: set(caa("issue", "sectigo.com")) },
    { tag: "Blocked", at: host }
  ],
  [
    "one of several issue records naming the CA",
    host,
    { [host]: set(caa("issue", "sectigo.com"), caa("issue", ca)) },
    { tag: "Allowed", at: host }
  ],
  [
    "a record only at a parent, naming another CA",
    host,
    { "example.com": set(caa("issue", "sectigo.com")) },
    { tag: "Blocked", at: "example.com" }
  ],
  [
    "a record only at a parent, allowing the CA",
    "a.b.example.com",
    { "example.com": set(caa("issue", ca)) },
    { tag: "Allowed", at: "example.com" }
  ],
  [
    "a record at the top-level domain",
    host,
    { com: set(caa("issue", "sectigo.com")) },
    { tag: "Blocked", at: "com" }
  ],
  [
    "the name's set overrides an allowing parent (no merge)",
    host,
    { [host]: set(caa("issue", "sectigo.com")), "example.com": set(caa("issue", ca)) },
    { tag: "Blocked", at: host }
  ],
  [
    "the name's set overrides a forbidding parent (no merge)",
    host,
    { [host]: set(caa("issue", ca)), "example.com": set(caa("issue", ";")) },
    { tag: "Allowed", at: host }
  ],
  [
    "issuewild does not govern a non-wildcard name",
    host,
    { [host]: set(caa("issuewild", "sectigo.com"), caa("issue", ca)) },
    { tag: "Allowed", at: host }
  ],
  [
    "issuewild alone does not restrict a non-wildcard name",
    host,
    { [host]: set(caa("issuewild", ";")) },
    { tag: "Allowed", at: host }
  ],
  [
    "issuewild governs a wildcard name when present",
    wildcardHost,
    { "example.com": set(caa("issue", ca), caa("issuewild", "sectigo.com")) },
    { tag: "Blocked", at: "example.com" }
  ],
  [
    "issuewild allowing the CA for a wildcard overrides issue",
    wildcardHost,
    { "example.com": set(caa("issue", ";"), caa("issuewild", ca)) },
    { tag: "Allowed", at: "example.com" }
  ],
  [
    "issue governs a wildcard name without issuewild",
    wildcardHost,
    { "example.com": set(caa("issue", "sectigo.com")) },
    { tag: "Blocked", at: "example.com" }
  ],
  [
    "a critical unknown tag blocks even when issue allows the CA",
    host,
    { [host]: set(caa("issue", ca), caa("tbs", "x", true)) },
    { tag: "Blocked", at: host }
  ],
  [
    "a critical unknown tag alone blocks",
    host,
    { [host]: set(caa("tbs", "x", true)) },
    { tag: "Blocked", at: host }
  ],
  [
    "a non-critical unknown tag is ignored",
    host,
    { [host]: set(caa("tbs", "x"), caa("issue", ca)) },
    { tag: "Allowed", at: host }
  ],
  [
    "critical known tags are understood",
    host,
    {
      [host]: set(
        caa("issue", ca, true),
        caa("iodef", "mailto:security@example.com", true),
        caa("contactemail", "dns@example.com", true),
        caa("contactphone", "+1 555 0100", true)
      )
    },
    { tag: "Allowed", at: host }
  ],
  [
    "a set with only iodef does not restrict",
    host,
    { [host]: set(caa("iodef", "mailto:security@example.com")), "example.com": set(caa("issue", ";")) },
    { tag: "Allowed", at: host }
  ],
  ['issue ";" forbids every CA', host, { [host]: set(caa("issue", ";")) }, { tag: "Blocked", at: host }],
  ['issue "" forbids every CA', host, { [host]: set(caa("issue", "")) }, { tag: "Blocked", at: host }],
  [
    'issue ";" next to an issue naming the CA allows it',
    host,
    { [host]: set(caa("issue", ";"), caa("issue", ca)) },
    { tag: "Allowed", at: host }
  ],
  [
    "an issuer with parameters",
    host,
    { [host]: set(caa("issue", `${ca}; validationmethods=http-01`)) },
    { tag: "Allowed", at: host }
  ],
  [
    "an issuer with parameters and no space",
    host,
    { [host]: set(caa("issue", ` ${ca};accounturi=https://acme-v02.api.letsencrypt.org/acme/acct/1`)) },
    { tag: "Allowed", at: host }
  ],
  [
    "an issuer naming the CA as a parameter only",
    host,
    { [host]: set(caa("issue", `sectigo.com; note=${ca}`)) },
    { tag: "Blocked", at: host }
  ],
  [
    "issuer domains compare case-insensitively",
    host,
    { [host]: set(caa("issue", "LetsEncrypt.ORG")) },
    { tag: "Allowed", at: host }
  ],
  [
    "tags compare case-insensitively",
    wildcardHost,
    { "example.com": set(caa("ISSUE", ca), caa("IssueWild", ";")) },
    { tag: "Blocked", at: "example.com" }
  ],
  ["SERVFAIL at the name", host, { [host]: servfail }, { tag: "LookupFailed", at: host }],
  [
    "timeout at a parent",
    host,
    { [host]: nxdomain, "example.com": timeout },
    { tag: "LookupFailed", at: "example.com" }
  ],
  [
    "a failure above the deciding name is never reached",
    host,
    { [host]: set(caa("issue", ca)), "example.com": servfail },
    { tag: "Allowed", at: host }
  ]
]

const decidedAt = (verdict: CaaVerdict): string | undefined => {
  switch (verdict._tag) {
    case "Allowed":
      return Option.getOrUndefined(verdict.decidedAt)
    case "Blocked":
      return verdict.decidedAt
    case "LookupFailed":
      return verdict.name
  }
}

describe("caaCandidates", () => {
  it.each([
    ["a.b.example.com", ["a.b.example.com", "b.example.com", "example.com", "com"]],
    ["example.com", ["example.com", "com"]],
    ["example.co.uk", ["example.co.uk", "co.uk", "uk"]],
    ["Docs.Example.COM.", ["docs.example.com", "example.com", "com"]],
    ["*.example.com", ["example.com", "com"]],
    ["com", ["com"]],
    ["", []]
  ] as const)("%s", (hostname, expected) => {
    expect(caaCandidates(hostname)).toStrictEqual(expected)
  })
})

describe("decideCaa", () => {
  it.each(rows)("%s", (_, hostname, answers, expected) => {
    const verdict = decideCaa(lookupsFor(hostname, answers), ca, { wildcard: hostname.startsWith("*.") })
    expect(verdict._tag).toBe(expected.tag)
    expect(decidedAt(verdict)).toBe(expected.at)
  })

  it("reports an allowing set by its name, and no CAA at all as none", () => {
    expect(decideCaa(lookupsFor(host, {}), ca, { wildcard: false })).toStrictEqual(allowed())
    expect(decideCaa([], ca, { wildcard: false })).toStrictEqual(allowed())
    expect(
      decideCaa(lookupsFor(host, { "example.com": set(caa("iodef", "mailto:x@example.com")) }), ca, {
        wildcard: false
      })
    ).toStrictEqual(allowed("example.com"))
  })

  it("blocks with the deciding records and why", () => {
    const records = [caa("issue", "sectigo.com"), caa("iodef", "mailto:x@example.com")] as const
    expect(decideCaa(lookupsFor(host, { [host]: set(...records) }), ca, { wildcard: false })).toStrictEqual({
      _tag: "Blocked",
      decidedAt: host,
      records,
      reason: "issue allows only sectigo.com, not letsencrypt.org"
    })
    expect(
      decideCaa(lookupsFor(host, { [host]: set(caa("issue", ";")) }), ca, { wildcard: false })
    ).toMatchObject({
      reason: 'issue ";" forbids every CA'
    })
    expect(
      decideCaa(lookupsFor(host, { [host]: set(caa("issue", ca), caa("tbs", "x", true)) }), ca, {
        wildcard: false
      })
    ).toMatchObject({ reason: 'the critical property "tbs" is not understood, so no CA may issue' })
  })

  it("reports a lookup failure with its name and reason", () => {
    expect(decideCaa(lookupsFor(host, { "example.com": timeout }), ca, { wildcard: false })).toStrictEqual({
      _tag: "LookupFailed",
      name: "example.com",
      reason: "timeout: no answer in 5s"
    })
  })

  it("compares the CA identifier case-insensitively too", () => {
    expect(
      decideCaa(lookupsFor(host, { [host]: set(caa("issue", ca)) }), "LetsEncrypt.org", { wildcard: false })
        ._tag
    ).toBe("Allowed")
  })

  const tag = fc.constantFrom("issue", "issuewild", "iodef", "contactemail", "tbs", "Issue")
  const value = fc.constantFrom(
    ca,
    "sectigo.com",
    ";",
    "",
    `${ca}; validationmethods=dns-01`,
    "LETSENCRYPT.ORG"
  )
  const record = fc.record({ critical: fc.boolean(), tag, value }).map((fields) => new CaaRecord(fields))
  const recordSet = fc.array(record, { minLength: 1, maxLength: 5 }).map(
    ([first, ...rest]): DnsAnswer<CaaRecord> => ({
      _tag: "Records",
      records: [first ?? caa("issue", ca), ...rest]
    })
  )
  const anyAnswer = fc.oneof(recordSet, fc.constantFrom(nxdomain, nodata, servfail, timeout))
  const names = ["a.b.c.example.com", "b.c.example.com", "c.example.com", "example.com", "com"] as const

  it("the verdict depends only on the first non-empty record set (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: names.length - 1 }),
        recordSet,
        fc.array(fc.constantFrom(nxdomain, nodata), { minLength: names.length, maxLength: names.length }),
        fc.array(anyAnswer, { minLength: names.length, maxLength: names.length }),
        fc.boolean(),
        (depth, deciding, empties, tail, wildcard) => {
          const lookups = names.map(
            (name, index): CaaLookup => ({
              name,
              answer: (index < depth ? empties[index] : index === depth ? deciding : tail[index]) ?? nodata
            })
          )
          const name = names[depth] ?? ""
          const alone = decideCaa([{ name, answer: deciding }], ca, { wildcard })
          expect(decideCaa(lookups, ca, { wildcard })).toStrictEqual(alone)
          expect(alone._tag).not.toBe("LookupFailed")
          expect(decidedAt(alone)).toBe(name)
        }
      )
    )
  })
})

describe("caaProblem", () => {
  it("is none when the CA may issue", () => {
    expect(caaProblem(host, ca, allowed())).toStrictEqual(Option.none())
    expect(caaProblem(host, ca, allowed(host))).toStrictEqual(Option.none())
  })

  it("names the records found next to the record required", () => {
    const verdict = decideCaa(
      lookupsFor(host, {
        "example.com": set(caa("issue", "sectigo.com"), caa("iodef", "mailto:x@example.com"))
      }),
      ca,
      { wildcard: false }
    )
    const problem = Option.getOrThrow(caaProblem(host, ca, verdict))
    expect(problem.code).toBe("caa_blocks_issuer")
    expect(problem.found).toStrictEqual(['0 issue "sectigo.com"', '0 iodef "mailto:x@example.com"'])
    expect(problem.message).toContain("example.com")
    expect(problem.message).toContain('0 issue "sectigo.com"')
    expect(problem.message).toContain(`add the CAA record example.com CAA 0 issue "${ca}"`)
  })

  it("asks for issuewild when that is what blocks a wildcard", () => {
    const verdict = decideCaa(
      lookupsFor(wildcardHost, { "example.com": set(caa("issue", ca), caa("issuewild", ";")) }),
      ca,
      { wildcard: true }
    )
    const problem = Option.getOrThrow(caaProblem(wildcardHost, ca, verdict))
    expect(problem.found).toStrictEqual(['0 issue "letsencrypt.org"', '0 issuewild ";"'])
    expect(problem.message).toContain(`CAA 0 issuewild "${ca}"`)
  })

  it("names a critical unknown record and asks to remove it", () => {
    const verdict = decideCaa(
      lookupsFor(host, { [host]: set(caa("issue", ca), caa("tbs", "x", true)) }),
      ca,
      {
        wildcard: false
      }
    )
    const problem = Option.getOrThrow(caaProblem(host, ca, verdict))
    expect(problem.found).toStrictEqual(['0 issue "letsencrypt.org"', '128 tbs "x"'])
    expect(problem.message).toContain('remove 128 tbs "x"')
  })

  it("says a failed lookup blocks issuance until it answers", () => {
    const verdict = decideCaa(lookupsFor(host, { [host]: servfail }), ca, { wildcard: false })
    const problem = Option.getOrThrow(caaProblem(host, ca, verdict))
    expect(problem.code).toBe("caa_blocks_issuer")
    expect(problem.found).toBeUndefined()
    expect(problem.message).toContain(`The CAA lookup at ${host} failed (servfail: SERVFAIL from 192.0.2.53)`)
    expect(problem.message).toContain("a CA refuses to issue")
  })
})

describe("checkCaa", () => {
  /** A resolver answering from a table (NODATA elsewhere) that records the names it was asked. */
  const fakeDns = (answers: Readonly<Record<string, DnsAnswer<CaaRecord>>>) => {
    const asked: Array<string> = []
    const layer = Layer.succeed(DnsResolver, {
      cname: () => Effect.die("cname is not asked"),
      addresses: () => Effect.die("addresses is not asked"),
      txt: () => Effect.die("txt is not asked"),
      caa: (name) =>
        Effect.sync(() => {
          asked.push(name)
          return answers[name] ?? nodata
        })
    })
    return { asked, layer }
  }

  it.effect("stops climbing at the deciding name", () =>
    Effect.gen(function* () {
      const dns = fakeDns({
        "b.example.com": set(caa("issue", "sectigo.com")),
        "example.com": set(caa("issue", ca))
      })
      const verdict = yield* Effect.provide(checkCaa("a.b.example.com", ca), dns.layer)
      expect(verdict).toMatchObject({ _tag: "Blocked", decidedAt: "b.example.com" })
      expect(dns.asked).toStrictEqual(["a.b.example.com", "b.example.com"])
    })
  )

  it.effect("climbs to the top-level domain when no name has CAA", () =>
    Effect.gen(function* () {
      const dns = fakeDns({})
      const verdict = yield* Effect.provide(checkCaa("a.b.example.com", ca), dns.layer)
      expect(verdict).toStrictEqual(allowed())
      expect(dns.asked).toStrictEqual(["a.b.example.com", "b.example.com", "example.com", "com"])
    })
  )

  it.effect("stops at a failed lookup", () =>
    Effect.gen(function* () {
      const dns = fakeDns({ "example.com": servfail })
      const verdict = yield* Effect.provide(checkCaa(host, ca), dns.layer)
      expect(verdict).toStrictEqual({
        _tag: "LookupFailed",
        name: "example.com",
        reason: "servfail: SERVFAIL from 192.0.2.53"
      })
      expect(dns.asked).toStrictEqual([host, "example.com"])
    })
  )

  it.effect("treats *.name as a wildcard, looking from the base name", () =>
    Effect.gen(function* () {
      const dns = fakeDns({ "example.com": set(caa("issue", ca), caa("issuewild", "sectigo.com")) })
      expect(yield* Effect.provide(checkCaa(wildcardHost, ca), dns.layer)).toMatchObject({ _tag: "Blocked" })
      expect(yield* Effect.provide(checkCaa(wildcardHost, ca, { wildcard: false }), dns.layer)).toStrictEqual(
        allowed("example.com")
      )
      expect(yield* Effect.provide(checkCaa("example.com", ca), dns.layer)).toStrictEqual(
        allowed("example.com")
      )
      expect(dns.asked).toStrictEqual(["example.com", "example.com", "example.com"])
    })
  )
})
