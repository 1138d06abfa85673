import { describe, expect, it } from "@effect/vitest"
import { isSchemaRefusal } from "@petstore/kernel/testing"
import { Arbitrary, Schema } from "effect"
import {
  CustomDomain,
  Hostname,
  Issuance,
  makeCustomDomain,
  makeIssuance,
  makeVerification,
  Verification
} from "../src/index.js"
import { addedDomain } from "../src/testing/index.js"

const t0 = new Date("2027-03-01T12:00:00.000Z")
const added = addedDomain("docs.example.com", "handbook", "cname.test", t0)

// Any valid domain, but for its hostname: generating from the hostname's pattern would mostly yield
// names that are not real hostnames.
const validDomainProps = Arbitrary.schema(
  Schema.Struct({ ...CustomDomain.fields, hostname: Schema.Literals(["docs.example.com", "example.org"]) })
)

/** What `new` does with `props`: the value, or the fact that it refused. */
const viaNew = <A>(construct: () => A): A | "refused" => {
  try {
    return construct()
  } catch (error) {
    expect(isSchemaRefusal(error)).toBe(true)
    return "refused"
  }
}

describe("a validating constructor", () => {
  it.prop(
    "builds the value `new` builds, for any valid domain",
    [validDomainProps],
    ([generated]) => {
      const props = { ...generated, hostname: Hostname.make(generated.hostname) }
      const built = makeCustomDomain(props)
      expect(built).toBeInstanceOf(CustomDomain)
      expect(built).toStrictEqual(new CustomDomain(props))
    },
    { arbitrary: { runs: 200 } }
  )

  it.each([
    ["a hostname that is none", () => ({ ...added, hostname: "not a host" as Hostname })],
    ["an unknown status", () => ({ ...added, status: "paused" as CustomDomain["status"] })],
    [
      "a verification that is a plain object breaking a rule",
      () => ({ ...added, verification: { ...added.verification, deadline: "tomorrow" } })
    ],
    ["an invalid date", () => ({ ...added, createdAt: new Date(Number.NaN) })]
  ])("refuses what `new` refuses: %s", (_, props) => {
    const input = props() as CustomDomain
    expect(viaNew(() => new CustomDomain(input))).toBe("refused")
    expect(viaNew(() => makeCustomDomain(input))).toBe("refused")
  })

  // Effect 4's `new` builds a nested class from its plain fields (Effect 3 refused them); so must this.
  it("builds a nested class from a plain object, as `new` does", () => {
    const input = { ...added, verification: { ...added.verification } } as CustomDomain
    const built = makeCustomDomain(input)
    expect(built.verification).toBeInstanceOf(Verification)
    expect(built).toStrictEqual(new CustomDomain(input))
    expect(built).toStrictEqual(added)
  })

  it("checks nested classes and refinements the same way", () => {
    const verification = { lastCheckedAt: null, nextCheckAt: t0, deadline: t0, problems: [] }
    expect(makeVerification(verification)).toStrictEqual(new Verification(verification))
    const negative = { requestedAt: t0, order: null, nextAttemptAt: t0, attempts: -1 }
    expect(viaNew(() => new Issuance(negative))).toBe("refused")
    expect(viaNew(() => makeIssuance(negative))).toBe("refused")
  })
})
