import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, FastCheck, ParseResult, Schema } from "effect"
import {
  CustomDomain,
  Hostname,
  Issuance,
  makeCustomDomain,
  makeIssuance,
  makeVerification,
  newCustomDomain,
  ProjectId,
  Verification
} from "../src/index.js"

const t0 = new Date("2027-03-01T12:00:00.000Z")
const added = newCustomDomain(Hostname.make("docs.example.com"), ProjectId.make("handbook"), "cname.test", t0)

// Any valid domain, but for its hostname: fast-check cannot generate from the hostname's pattern.
const validDomainProps = Arbitrary.make(
  Schema.Struct({ ...CustomDomain.fields, hostname: Schema.Literal("docs.example.com", "example.org") })
)

/** What `new` does with `props`: the value, or the fact that it refused. */
const viaNew = <A>(construct: () => A): A | "refused" => {
  try {
    return construct()
  } catch (error) {
    expect(ParseResult.isParseError(error)).toBe(true)
    return "refused"
  }
}

describe("a validating constructor", () => {
  it("builds the value `new` builds, for any valid domain", () => {
    FastCheck.assert(
      FastCheck.property(validDomainProps, (generated) => {
        const props = { ...generated, hostname: Hostname.make(generated.hostname) }
        const built = makeCustomDomain(props)
        expect(built).toBeInstanceOf(CustomDomain)
        expect(built).toStrictEqual(new CustomDomain(props))
      }),
      { numRuns: 200 }
    )
  })

  it.each([
    ["a hostname that is none", () => ({ ...added, hostname: "not a host" as Hostname })],
    ["an unknown status", () => ({ ...added, status: "paused" as CustomDomain["status"] })],
    ["a verification that is a plain object", () => ({ ...added, verification: { ...added.verification } })],
    ["an invalid date", () => ({ ...added, createdAt: new Date(Number.NaN) })]
  ])("refuses what `new` refuses: %s", (_, props) => {
    const input = props() as CustomDomain
    expect(viaNew(() => new CustomDomain(input))).toBe("refused")
    expect(() => makeCustomDomain(input)).toThrow(ParseResult.ParseError)
  })

  it("checks nested classes and refinements the same way", () => {
    const verification = { lastCheckedAt: null, nextCheckAt: t0, deadline: t0, problems: [] }
    expect(makeVerification(verification)).toStrictEqual(new Verification(verification))
    const negative = { requestedAt: t0, order: null, nextAttemptAt: t0, attempts: -1 }
    expect(viaNew(() => new Issuance(negative))).toBe("refused")
    expect(() => makeIssuance(negative)).toThrow(ParseResult.ParseError)
  })
})
