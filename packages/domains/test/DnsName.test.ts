import { describe, expect, it } from "@effect/vitest"
import { Option, Schema } from "effect"
import fc from "fast-check"
import { DnsName } from "../src/index.js"

const label63 = "a".repeat(63)
/** 63 + 1 + 63 + 1 + 63 + 1 + 57 + 1 + 3 = 253 octets. */
const name253 = [label63, label63, label63, "b".repeat(57), "com"].join(".")

/** Names of every shape: empty labels, too long ones, capitals, underscores, hyphens at the ends. */
const nameLike = fc
  .array(fc.string({ unit: fc.constantFrom(..."az09-_A".split("")), maxLength: 70 }), {
    minLength: 1,
    maxLength: 6
  })
  .map((labels) => labels.join("."))
/** Host header values: a name in any case, maybe a trailing dot, maybe a port. */
const hostHeader = fc
  .tuple(
    fc.domain(),
    fc.boolean(),
    fc.boolean(),
    fc.option(fc.integer({ min: 0, max: 65535 }), { nil: undefined })
  )
  .map(([name, upper, dot, port]) => {
    const cased = upper ? name.toUpperCase() : name
    return `${cased}${dot ? "." : ""}${port === undefined ? "" : `:${port}`}`
  })

const isDnsName = Schema.is(DnsName.DnsName)

describe("the label rules", () => {
  it("hold exactly when every label does", () => {
    fc.assert(
      fc.property(fc.oneof(nameLike, fc.string(), fc.domain()), (name) => {
        const labels = DnsName.labelsOf(name)
        expect(DnsName.labelLengthRule.holds(name)).toBe(
          labels.every((label) => label.length >= 1 && label.length <= 63)
        )
        expect(DnsName.ldhRule.holds(name)).toBe(labels.every((label) => DnsName.ldhLabelPattern.test(label)))
      }),
      { numRuns: 2_000 }
    )
  })
})

describe("normalise", () => {
  it.each([
    ["docs.example.com", "docs.example.com"],
    ["Docs.Example.COM", "docs.example.com"],
    [" docs.example.com.\n", "docs.example.com"],
    ["docs.example.com..", "docs.example.com."],
    ["docs.example.com. .", "docs.example.com. "],
    [".", ""],
    ["", ""]
  ])("%j → %j", (text, name) => {
    expect(DnsName.normalise(text)).toBe(name)
  })

  it("is idempotent, ignores case and one trailing dot", () => {
    fc.assert(
      fc.property(fc.domain(), fc.string(), (domain, text) => {
        const once = DnsName.normalise(text)
        // Only one dot and the outer spaces go: what is left of `x..` or `x. .` is the name's own, for
        // the rules to refuse, and a second pass would take it as another trailing dot or space.
        if (!once.endsWith(".") && once === once.trim()) expect(DnsName.normalise(once)).toBe(once)
        expect(DnsName.normalise(`${domain.toUpperCase()}.`)).toBe(DnsName.normalise(domain))
      })
    )
  })

  it("is what the boundaries' Schemas decode names to", () => {
    const Name = Schema.String.pipe(Schema.decodeTo(Schema.String, DnsName.normalising))
    expect(Schema.decodeUnknownSync(Name)("CNAME.Example.NET.")).toBe("cname.example.net")
    expect(Schema.encodeSync(Name)("cname.example.net")).toBe("cname.example.net")
  })
})

describe("equals", () => {
  it.each([
    ["cname.docs-platform.net", "cname.docs-platform.net", true],
    ["CNAME.Docs-Platform.NET", "cname.docs-platform.net", true],
    ["cname.docs-platform.net.", "cname.docs-platform.net", true],
    ["cname.docs-platform.net", "CNAME.DOCS-PLATFORM.NET.", true],
    ["x.cname.docs-platform.net", "cname.docs-platform.net", false],
    ["cname.docs-platform.net..", "cname.docs-platform.net", false],
    ["cname.docs-platform.ne", "cname.docs-platform.net", false]
  ])("equals(%s, %s) is %s, either way round", (a, b, expected) => {
    expect(DnsName.equals(a, b)).toBe(expected)
    expect(DnsName.equals(b, a)).toBe(expected)
  })
})

describe("toAscii", () => {
  it.each([
    ["Bücher.DE", "xn--bcher-kva.de"],
    ["ПРИМЕР.РФ", "xn--e1afmkfd.xn--p1ai"],
    ["XN--BCHER-KVA.DE", "xn--bcher-kva.de"],
    ["ＥＸＡＭＰＬＥ.com", "example.com"],
    ["example。com。", "example.com"],
    ["  docs.example.com. ", "docs.example.com"],
    ["0x7f.1", "127.0.0.1"]
  ])("%j → %j", (text, name) => {
    expect(DnsName.toAscii(text)).toStrictEqual(Option.some(name))
  })

  it.each([
    "",
    "   ",
    "x.com:80",
    "x.com/docs",
    "https://x.com/",
    "user@x.com",
    "x.com?a=b",
    "x.com#top",
    "ex%41mple.com",
    "exa mple.com",
    "[::1]",
    "xn--abc.com"
  ])("refuses %j: it cannot be a name", (text) => {
    expect(DnsName.toAscii(text)).toStrictEqual(Option.none())
  })

  it("leaves an ASCII name as normalise does, and its own output as it is", () => {
    fc.assert(
      fc.property(fc.domain(), (domain) => {
        expect(DnsName.toAscii(` ${domain.toUpperCase()}. `)).toStrictEqual(
          Option.some(DnsName.normalise(domain))
        )
      })
    )
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.domain(), fc.string({ unit: "grapheme" })), (text) => {
        const name = DnsName.toAscii(text)
        if (Option.isSome(name) && name.value !== "") expect(DnsName.toAscii(name.value)).toStrictEqual(name)
      })
    )
  })
})

describe("fromHost", () => {
  it.each([
    ["Docs.Example.COM:8443", "docs.example.com"],
    [" docs.example.com. ", "docs.example.com"],
    ["docs.example.com.:443", "docs.example.com"],
    ["", ""],
    ["Bücher.Example.com:80", "xn--bcher-kva.example.com"],
    ["bücher.example.com/x", ""]
  ])("%j names %j", (host, name) => {
    expect(DnsName.fromHost(host)).toBe(name)
  })

  it("names the same as toAscii whatever the case, trailing dot and port", () => {
    fc.assert(
      fc.property(hostHeader, (host) => {
        expect(Option.some(DnsName.fromHost(host))).toStrictEqual(DnsName.toAscii(host.replace(/:\d+$/, "")))
      })
    )
  })
})

describe("the rules and the DnsName schema", () => {
  it.each([
    ["docs.example.com", true],
    ["com", true],
    ["xn--bcher-kva.de", true],
    ["a-b--c.d1", true],
    [`${label63}.com`, true],
    [name253, true],
    [`${name253}m`, false],
    [`${"a".repeat(64)}.com`, false],
    ["", false],
    ["a..com", false],
    ["example.com.", false],
    ["Example.com", false],
    ["_dmarc.example.com", false],
    ["-docs.example.com", false],
    ["docs-.example.com", false],
    ["*.example.com", false]
  ])("%s is a DnsName: %s", (name, expected) => {
    expect(isDnsName(name)).toBe(expected)
  })

  it("refuses a name with the first rule it breaks, in the API's words", () => {
    const rules = [DnsName.lengthRule, DnsName.labelLengthRule, DnsName.ldhRule]
    const broken = (name: string) => Option.map(DnsName.brokenRule(name, rules), (rule) => rule.message)
    expect(broken(`${"_".repeat(64)}.${name253}`)).toStrictEqual(
      Option.some("must be at most 253 characters")
    )
    expect(broken(`${"_".repeat(64)}.com`)).toStrictEqual(
      Option.some("must have labels of 1 to 63 characters")
    )
    expect(broken("a..com")).toStrictEqual(Option.some("must have labels of 1 to 63 characters"))
    expect(broken("my_docs.com")).toStrictEqual(
      Option.some("must have labels of letters, digits and inner hyphens only")
    )
    expect(broken("docs.example.com")).toStrictEqual(Option.none())
    expect(Schema.decodeUnknownExit(DnsName.DnsName)("my_docs.com")._tag).toBe("Failure")
  })

  it("says what the patterns a JSON Schema shows say", () => {
    const oneOrMore = DnsName.namePattern({ minLabels: 1 })
    const twoOrMore = DnsName.namePattern({ minLabels: 2 })
    fc.assert(
      fc.property(fc.oneof(nameLike, fc.domain()), (name) => {
        expect(oneOrMore.test(name)).toBe(isDnsName(name))
        expect(twoOrMore.test(name)).toBe(isDnsName(name) && DnsName.labelsOf(name).length >= 2)
      }),
      { numRuns: 2000 }
    )
  })

  it("knows a label by the same rule", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."az09-_A.".split("")), maxLength: 70 }), (label) => {
        expect(DnsName.ldhLabelPattern.test(label)).toBe(isDnsName(label) && !label.includes("."))
      })
    )
  })
})

describe("at or under a zone", () => {
  it.each([
    ["docs-platform.net", true, undefined],
    ["p1.docs-platform.net", true, "p1"],
    ["a.b.docs-platform.net", true, "a.b"],
    ["mydocs-platform.net", false, undefined],
    ["docs-platform.net.evil.com", false, undefined],
    ["docs-platform.com", false, undefined]
  ])("%s: at or under docs-platform.net %s, relative name %s", (name, atOrUnder, relative) => {
    expect(DnsName.isAtOrUnder(name, "docs-platform.net")).toBe(atOrUnder)
    expect(DnsName.relativeTo(name, "docs-platform.net")).toStrictEqual(Option.fromUndefinedOr(relative))
  })

  it("climbs towards the root, without it", () => {
    expect(DnsName.towardsRoot("a.b.example.com")).toEqual([
      "a.b.example.com",
      "b.example.com",
      "example.com",
      "com"
    ])
    expect(DnsName.towardsRoot("a..com")).toEqual(["a.com", "com"])
    expect(DnsName.towardsRoot("")).toEqual([])
  })
})

describe("the Public Suffix List", () => {
  it.each([
    ["a.b.example.co.uk", "example.co.uk", true],
    ["example.com", "example.com", true],
    ["docs.github.io", "github.io", true],
    ["docs.petstore-sites.test", "petstore-sites.test", false],
    ["example.invalidtld", "example.invalidtld", false],
    ["co.uk", undefined, false],
    ["com", undefined, false]
  ])("%s: registrable domain %s, under an ICANN suffix %s", (name, registrable, icann) => {
    expect(DnsName.registrableDomain(name)).toStrictEqual(Option.fromUndefinedOr(registrable))
    expect(DnsName.isUnderIcannSuffix(name)).toBe(icann)
  })
})
