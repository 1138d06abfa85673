import { describe, expect, it } from "@effect/vitest"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { DnsName, Hostname, hostnameKind, normaliseHostname } from "../src/index.js"

const platformDomain = "docs-platform.net"
const normalise = (input: string) => normaliseHostname(input, [platformDomain])

const label63 = "a".repeat(63)
/** 63 + 1 + 63 + 1 + 63 + 1 + 57 + 1 + 3 = 253 octets. */
const name253 = [label63, label63, label63, "b".repeat(57), "com"].join(".")
const name254 = [label63, label63, label63, "b".repeat(58), "com"].join(".")

const rules = {
  notAHostname: "must be a hostname such as docs.example.com",
  tooLong: "must be at most 253 characters",
  twoLabels: "must have at least two labels, such as example.com",
  labelLength: "must have labels of 1 to 63 characters",
  ldh: "must have labels of letters, digits and inner hyphens only",
  address: "must be a name, not an address",
  publicSuffix: "must be under a public suffix such as .com",
  platform: `must not be under ${platformDomain}`
} as const

/** Letters whose upper and lower case map one to one (unlike ß → SS or ı/İ). */
const labelChar = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789üéöçñåøабв".split(""))
const generatedLabel = fc
  .tuple(
    fc.array(labelChar, { minLength: 1, maxLength: 12 }),
    fc.option(fc.array(fc.constantFrom(..."ab1-".split("")), { minLength: 1, maxLength: 4 }), {
      nil: undefined
    }),
    fc.array(labelChar, { maxLength: 3 })
  )
  .map(([head, middle, tail]) => [...head, ...(middle ?? []), ...tail].join(""))
const suffix = fc.constantFrom(
  "com",
  "net",
  "org",
  "de",
  "co.uk",
  "com.au",
  "io",
  "рф",
  "example",
  "invalidtld",
  platformDomain
)
/** Hostname-like inputs, mostly valid, with random case, trailing dots, spaces and the odd flaw. */
const hostnameInput = fc
  .tuple(
    fc.array(generatedLabel, { minLength: 0, maxLength: 4 }),
    suffix,
    fc.array(fc.boolean(), { minLength: 300, maxLength: 300 }),
    fc.constantFrom("", ".", " ", "  ", ".."),
    fc.constantFrom("", " ", "\t")
  )
  .map(([labels, tld, upper, end, start]) => {
    const name = [...labels, tld].join(".")
    const cased = Array.from(name, (ch, i) => (upper[i % upper.length] ? ch.toUpperCase() : ch)).join("")
    return `${start}${cased}${end}`
  })
/** Anything at all, including inputs with no chance of being accepted. */
const anyInput = fc.oneof(
  hostnameInput,
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.webUrl(),
  fc.domain(),
  fc.ipV4(),
  fc.ipV6()
)

describe("normaliseHostname", () => {
  it.each([
    ["lower case already", "docs.example.com", "docs.example.com"],
    ["upper case → lower case", "DOCS.Example.COM", "docs.example.com"],
    ["an IDN → punycode", "bücher.de", "xn--bcher-kva.de"],
    ["an IDN with capitals → punycode", "Bücher.DE", "xn--bcher-kva.de"],
    ["an IDN label under an IDN TLD", "ПРИМЕР.РФ", "xn--e1afmkfd.xn--p1ai"],
    ["punycode in capitals → lower case", "XN--BCHER-KVA.DE", "xn--bcher-kva.de"],
    ["a trailing dot removed", "example.com.", "example.com"],
    ["upper case and a trailing dot", "WWW.EXAMPLE.COM.", "www.example.com"],
    ["surrounding spaces", "  docs.example.com  ", "docs.example.com"],
    ["surrounding tabs and newlines", "\tdocs.example.com\n", "docs.example.com"],
    ["full-width letters (UTS #46 mapping)", "ＥＸＡＭＰＬＥ.com", "example.com"],
    ["an ideographic full stop as separator", "example。com", "example.com"],
    ["a label of exactly 63 characters", `${label63}.com`, `${label63}.com`],
    ["exactly 253 characters", name253, name253],
    ["253 characters and a trailing dot", `${name253}.`, name253],
    ["many labels", "a.b.c.d.e.f.example.com", "a.b.c.d.e.f.example.com"],
    ["inner hyphens, even doubled", "my-docs.ab--cd.com", "my-docs.ab--cd.com"],
    ["digits only in labels other than the TLD", "1.2.3.4.com", "1.2.3.4.com"],
    ["an apex under a two-label suffix", "example.co.uk", "example.co.uk"],
    ["a name merely ending like the platform domain", "mydocs-platform.net", "mydocs-platform.net"]
  ])("accepts %s: %j → %j", (_, input, expected) => {
    expect(normalise(input)).toStrictEqual(Result.succeed(expected))
  })

  it.each([
    ["empty", "", rules.notAHostname],
    ["spaces only", "   ", rules.notAHostname],
    ["a single label", "localhost", rules.twoLabels],
    ["a bare TLD with a trailing dot", "com.", rules.twoLabels],
    ["the root alone", ".", rules.twoLabels],
    ["a label of 64 characters", `${"a".repeat(64)}.com`, rules.labelLength],
    ["254 characters", name254, rules.tooLong],
    ["far more than 253 characters", `${Array(70).fill("abc").join(".")}.com`, rules.tooLong],
    ["an underscore", "_dmarc.example.com", rules.ldh],
    ["an underscore inside a label", "my_docs.example.com", rules.ldh],
    ["a wildcard", "*.example.com", rules.ldh],
    ["a leading hyphen", "-docs.example.com", rules.ldh],
    ["a trailing hyphen", "docs-.example.com", rules.ldh],
    ["a leading hyphen in the apex label", "docs.-example.com", rules.ldh],
    ["an IPv4 address", "1.2.3.4", rules.address],
    ["a shortened IPv4 address", "127.1", rules.address],
    ["a hexadecimal IPv4 address", "0x7f.1", rules.address],
    ["an octal IPv4 address", "0177.0.0.1", rules.address],
    // Refused by the character check before it could be recognised as an address.
    ["a bracketed IPv6 address", "[::1]", rules.notAHostname],
    ["a bare IPv6 address", "2001:db8::1", rules.notAHostname],
    ["an empty label", "a..b.com", rules.labelLength],
    ["a leading dot", ".example.com", rules.labelLength],
    ["two trailing dots", "example.com..", rules.labelLength],
    ["a URL", "https://x.com/", rules.notAHostname],
    ["a path", "x.com/docs", rules.notAHostname],
    ["a query", "x.com?a=b", rules.notAHostname],
    ["a fragment", "x.com#top", rules.notAHostname],
    ["user info", "user@x.com", rules.notAHostname],
    ["a port", "x.com:80", rules.notAHostname],
    ["a trailing dot and a port", "x.com.:443", rules.notAHostname],
    ["an inner space", "exa mple.com", rules.notAHostname],
    ["a percent-escape", "ex%41mple.com", rules.notAHostname],
    ["invalid punycode", "xn--abc.com", rules.notAHostname],
    ["a bare public suffix", "co.uk", rules.publicSuffix],
    ["a bare public suffix in capitals", "CO.UK", rules.publicSuffix],
    ["an unknown TLD", "example.invalidtld", rules.publicSuffix],
    ["a reserved TLD (RFC 6761)", "docs.test", rules.publicSuffix],
    ["a non-ICANN name", "localhost.localdomain", rules.publicSuffix],
    // The brief asked for `Bücher.example` → `xn--bcher-kva.example`; `.example` is reserved
    // (RFC 2606) and not on the Public Suffix List, so the unknown-TLD rule refuses it.
    ["an IDN under the reserved .example TLD", "Bücher.example", rules.publicSuffix],
    ["the platform domain itself", platformDomain, rules.platform],
    ["the platform domain with a trailing dot", `${platformDomain}.`, rules.platform],
    ["the platform domain in capitals", "DOCS-PLATFORM.NET", rules.platform],
    ["a default hostname under the platform domain", `my-project.${platformDomain}`, rules.platform],
    ["a deeper name under the platform domain", `a.b.${platformDomain}`, rules.platform]
  ])("refuses %s (%j) with the rule it breaks", (_, input, rule) => {
    expect(normalise(input)).toStrictEqual(Result.fail(rule))
  })

  it("refuses names at or under whichever reserved names it is given, naming the one", () => {
    expect(normaliseHostname("docs.example.com", ["example.com"])).toStrictEqual(
      Result.fail("must not be under example.com")
    )
    expect(normaliseHostname("docs.example.com", ["other.example.com"])).toStrictEqual(
      Result.succeed("docs.example.com")
    )
    expect(normaliseHostname("www.sites.example.net", ["docs.example.org", "example.net"])).toStrictEqual(
      Result.fail("must not be under example.net")
    )
  })
})

describe("hostnameKind", () => {
  it.each([
    ["example.com", "apex"],
    ["www.example.com", "subdomain"],
    ["example.co.uk", "apex"],
    ["docs.example.co.uk", "subdomain"],
    ["a.b.docs.example.co.uk", "subdomain"],
    ["xn--bcher-kva.de", "apex"],
    ["docs.xn--bcher-kva.de", "subdomain"],
    ["example.com.au", "apex"],
    ["www.example.com.au", "subdomain"]
  ] as const)("%s is %s", (hostname, kind) => {
    expect(hostnameKind(Hostname.make(hostname))).toBe(kind)
  })

  it("classifies every accepted apex's subdomains as subdomains", () => {
    fc.assert(
      fc.property(hostnameInput, fc.constantFrom("www", "docs", "a.b"), (input, prefix) => {
        const hostname = normalise(input)
        if (Result.isFailure(hostname) || hostnameKind(hostname.success) !== "apex") return
        const below = normalise(`${prefix}.${hostname.success}`)
        if (Result.isSuccess(below)) expect(hostnameKind(below.success)).toBe("subdomain")
      })
    )
  })
})

describe("normaliseHostname properties", () => {
  it("generates accepted names often enough to test something", () => {
    const samples = fc.sample(hostnameInput, { numRuns: 500, seed: 42 })
    const accepted = samples.filter((input) => Result.isSuccess(normalise(input)))
    expect(accepted.length).toBeGreaterThan(100)
  })

  it("is idempotent: normalising an accepted output yields itself", () => {
    fc.assert(
      fc.property(anyInput, (input) => {
        const first = normalise(input)
        if (Result.isSuccess(first)) expect(normalise(first.success)).toStrictEqual(first)
      }),
      { numRuns: 2000 }
    )
  })

  it("only accepts outputs that match the Hostname schema and the contract's limits", () => {
    const isHostname = Schema.is(Hostname)
    fc.assert(
      fc.property(anyInput, (input) => {
        const result = normalise(input)
        if (Result.isFailure(result)) return
        const hostname = result.success
        expect(isHostname(hostname)).toBe(true)
        expect(hostname).toBe(hostname.toLowerCase())
        expect(hostname.length).toBeLessThanOrEqual(253)
        expect(hostname.endsWith(".")).toBe(false)
        expect(hostname.split(".").length).toBeGreaterThanOrEqual(2)
        expect(DnsName.isAtOrUnder(hostname, platformDomain)).toBe(false)
        expect(hostname).toMatch(/^[\x21-\x7e]+$/)
      }),
      { numRuns: 2000 }
    )
  })

  it("gives the same result for any change of case of an accepted input", () => {
    fc.assert(
      fc.property(hostnameInput, fc.array(fc.boolean(), { minLength: 1, maxLength: 50 }), (input, flips) => {
        const result = normalise(input)
        if (Result.isFailure(result)) return
        const flipped = Array.from(input, (ch, i) =>
          flips[i % flips.length] ? ch.toUpperCase() : ch.toLowerCase()
        ).join("")
        expect(normalise(input.toUpperCase())).toStrictEqual(result)
        expect(normalise(input.toLowerCase())).toStrictEqual(result)
        expect(normalise(flipped)).toStrictEqual(result)
      }),
      { numRuns: 1000 }
    )
  })

  it("gives the same answer, accepted or refused, for ASCII inputs in any case", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 30 }), fc.domain(), fc.webUrl()), (input) => {
        expect(normalise(input.toUpperCase())).toStrictEqual(normalise(input.toLowerCase()))
      }),
      { numRuns: 1000 }
    )
  })

  it("ignores one trailing dot and surrounding spaces", () => {
    fc.assert(
      fc.property(hostnameInput, (input) => {
        const trimmed = input.trim()
        if (trimmed.endsWith(".")) return
        expect(normalise(` ${trimmed}. `)).toStrictEqual(normalise(trimmed))
      }),
      { numRuns: 1000 }
    )
  })
})
