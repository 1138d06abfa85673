import { describe, expect, it } from "@effect/vitest"
import {
  type DnsAnswer,
  Hostname,
  OwnershipToken,
  ownershipRecord,
  ownershipRecordName,
  ownershipRecordValue
} from "@petstore/domains"
import { AccountName } from "@petstore/kernel"
import { Duration, Schema } from "effect"
import {
  applyClaimCheck,
  type Claim,
  needsRecord,
  newClaim,
  type OwnershipFacts,
  type OwnershipProof,
  ownershipLostProblem,
  ownershipProof,
  ownershipRequiredProblem,
  ownershipRequirement,
  recentHoldWindow,
  wildcardProbeName,
  wildcardProblem
} from "../src/index.js"

const day = 24 * 3_600_000
const now = new Date("2027-03-01T12:00:00.000Z")
const ago = (millis: number) => new Date(now.getTime() - millis)
const acme = AccountName.make("acme")
const rival = AccountName.make("rival")
const token = OwnershipToken.make("0123456789abcdef0123456789abcdef")
const apex = Hostname.make("example.com")
const hostname = "docs.example.com"
const value = `petstore-verification=${token}`

const pendingClaim = (account: AccountName): Claim => newClaim(account, apex, token, ago(day))
const provedClaim = (account: AccountName): Claim =>
  applyClaimCheck(pendingClaim(account), { _tag: "Found" }, ago(day))

const facts = (overrides: Partial<OwnershipFacts> = {}): OwnershipFacts => ({
  holders: [acme],
  releases: [],
  claims: [],
  ...overrides
})

const records = (first: string, ...rest: Array<string>): DnsAnswer<string> => ({
  _tag: "Records",
  records: [first, ...rest]
})

describe("OwnershipToken", () => {
  it("is 32 lower-case hex digits (128 bits)", () => {
    expect(Schema.decodeUnknownSync(OwnershipToken)("00ff00ff00ff00ff00ff00ff00ff00ff")).toBe(
      "00ff00ff00ff00ff00ff00ff00ff00ff"
    )
  })

  it.each([
    ["31 digits", "0123456789abcdef0123456789abcde"],
    ["33 digits", "0123456789abcdef0123456789abcdef0"],
    ["upper case", "0123456789ABCDEF0123456789ABCDEF"],
    ["not hex", "0123456789abcdef0123456789abcdeg"],
    ["spaces around", " 0123456789abcdef0123456789abcdef "],
    ["nothing", ""]
  ])("refuses %s", (_, text) => {
    expect(Schema.is(OwnershipToken)(text)).toBe(false)
    expect(() => Schema.decodeUnknownSync(OwnershipToken)(text)).toThrow("32 lower-case hex digits")
  })
})

describe("ownershipRecord", () => {
  it("is the TXT record _petstore-challenge.<name> = petstore-verification=<token>", () => {
    expect(ownershipRecordName("docs.example.com")).toBe("_petstore-challenge.docs.example.com")
    expect(ownershipRecordValue(token)).toBe(value)
    expect({ ...ownershipRecord("docs.example.com", token, true) }).toStrictEqual({
      type: "TXT",
      name: "_petstore-challenge.docs.example.com",
      value,
      required: true
    })
  })
})

describe("ownershipRequirement", () => {
  it("requires nothing of a name nobody else has, had or claims", () => {
    expect(ownershipRequirement(acme, facts(), now)).toStrictEqual({ _tag: "NotRequired" })
    expect(ownershipRequirement(acme, facts({ holders: [] }), now)).toStrictEqual({ _tag: "NotRequired" })
  })

  it("rule 1: requires the record when another account has the same hostname", () => {
    expect(ownershipRequirement(acme, facts({ holders: [acme, rival] }), now)).toStrictEqual({
      _tag: "Required"
    })
    expect(ownershipRequirement(acme, facts({ holders: [rival] }), now)).toStrictEqual({ _tag: "Required" })
  })

  it("rule 1: the account's own domains (another project's) do not contest the name", () => {
    expect(ownershipRequirement(acme, facts({ holders: [acme, acme] }), now)).toStrictEqual({
      _tag: "NotRequired"
    })
  })

  it("rule 2: requires the record while another account's release is less than 30 days old", () => {
    const window = Duration.toMillis(recentHoldWindow)
    expect(window).toBe(30 * day)
    const releasedAt = (millis: number) =>
      facts({ releases: [{ account: rival, hostname, releasedAt: ago(millis) }] })
    expect(ownershipRequirement(acme, releasedAt(0), now)._tag).toBe("Required")
    expect(ownershipRequirement(acme, releasedAt(29 * day), now)._tag).toBe("Required")
    expect(ownershipRequirement(acme, releasedAt(window - 1), now)._tag).toBe("Required")
    expect(ownershipRequirement(acme, releasedAt(window), now)._tag).toBe("NotRequired")
    expect(ownershipRequirement(acme, releasedAt(window + 1), now)._tag).toBe("NotRequired")
  })

  it("rule 2: the account's own release does not contest the name", () => {
    const ownRelease = facts({ releases: [{ account: acme, hostname, releasedAt: ago(day) }] })
    expect(ownershipRequirement(acme, ownRelease, now)._tag).toBe("NotRequired")
  })

  it("rule 3: requires the record under an apex another account claims, proved or not yet", () => {
    expect(ownershipRequirement(acme, facts({ claims: [pendingClaim(rival)] }), now)).toStrictEqual({
      _tag: "Required"
    })
  })

  it("a pending claim of the account's own proves nothing and contests nothing", () => {
    expect(ownershipRequirement(acme, facts({ claims: [pendingClaim(acme)] }), now)._tag).toBe("NotRequired")
    expect(
      ownershipRequirement(acme, facts({ holders: [acme, rival], claims: [pendingClaim(acme)] }), now)._tag
    ).toBe("Required")
  })

  it("another account's proved claim gives the name to that account", () => {
    expect(ownershipRequirement(acme, facts({ claims: [provedClaim(rival)] }), now)).toStrictEqual({
      _tag: "ClaimedByOther",
      apex: "example.com"
    })
  })

  it("the account's own proved claim is proof, however contested the name is", () => {
    const contested = facts({
      holders: [acme, rival],
      releases: [{ account: rival, hostname, releasedAt: ago(day) }],
      claims: [pendingClaim(rival), provedClaim(acme)]
    })
    expect(ownershipRequirement(acme, contested, now)).toStrictEqual({
      _tag: "ProvedByClaim",
      apex: "example.com"
    })
    // The same facts, read for the other account: the name is acme's.
    expect(ownershipRequirement(rival, contested, now)).toStrictEqual({
      _tag: "ClaimedByOther",
      apex: "example.com"
    })
  })

  it("needsRecord: what ownership.required shows for each requirement", () => {
    expect(needsRecord({ _tag: "NotRequired" })).toBe(false)
    expect(needsRecord({ _tag: "Required" })).toBe(true)
    expect(needsRecord({ _tag: "ProvedByClaim", apex })).toBe(false)
    expect(needsRecord({ _tag: "ClaimedByOther", apex })).toBe(true)
  })
})

describe("ownershipProof", () => {
  it.each<readonly [string, DnsAnswer<string>]>([
    ["the value alone", records(value)],
    ["the value with spaces around it", records(`  ${value} `)],
    ["the value among other TXT values", records("v=spf1 -all", value, "google-site-verification=x")]
  ])("finds %s", (_, answer) => {
    expect(ownershipProof(answer, value)).toStrictEqual({ _tag: "Found" })
  })

  it.each<readonly [string, ReadonlyArray<string>]>([
    ["other values only", ["v=spf1 -all"]],
    ["another account's token", ["petstore-verification=ffffffffffffffffffffffffffffffff"]],
    ["the value in upper case", [value.toUpperCase()]],
    ["a prefix of the value", [value.slice(0, -1)]],
    ["the value with more after it", [`${value}0`]],
    ["the value inside another", [`x ${value}`]],
    ["the bare token", [token]]
  ])("misses %s, naming what it found", (_, found) => {
    const [first, ...rest] = found
    expect(ownershipProof(records(first ?? "", ...rest), value)).toStrictEqual({ _tag: "Missing", found })
  })

  it("misses an empty answer, NXDOMAIN or NODATA alike, with nothing found", () => {
    for (const reason of ["nxdomain", "nodata"] as const) {
      expect(ownershipProof({ _tag: "NoRecords", reason }, value)).toStrictEqual({
        _tag: "Missing",
        found: []
      })
    }
  })

  it("knows nothing when the lookup got no answer", () => {
    for (const reason of ["timeout", "servfail", "refused", "other"] as const) {
      expect(ownershipProof({ _tag: "Failure", reason, detail: "no answer" }, value)).toStrictEqual({
        _tag: "Unknown",
        detail: `${reason}: no answer`
      })
    }
  })
})

describe("the ownership problems", () => {
  const record = ownershipRecord("docs.example.com", token, true)

  it("ownership_required names the record to create, and what was found instead", () => {
    const missing: OwnershipProof = { _tag: "Missing", found: ["v=spf1 -all"] }
    const problem = ownershipRequiredProblem("docs.example.com", record, missing)
    expect(problem.code).toBe("ownership_required")
    expect(problem.message).toContain("_petstore-challenge.docs.example.com")
    expect(problem.message).toContain(value)
    expect(problem.found).toStrictEqual(['TXT "v=spf1 -all"'])
  })

  it("ownership_required without anything found has no found", () => {
    const problem = ownershipRequiredProblem("docs.example.com", record, { _tag: "Missing", found: [] })
    expect(Object.keys(problem)).not.toContain("found")
  })

  it("ownership_required after a lookup without answer says it will be retried", () => {
    const problem = ownershipRequiredProblem("docs.example.com", record, {
      _tag: "Unknown",
      detail: "servfail: upstream failed"
    })
    expect(problem.message).toContain("servfail: upstream failed")
    expect(problem.message).toContain("retried")
    expect(problem.message).toContain(value)
    expect(problem.found).toBeUndefined()
  })

  it("ownership_lost names the claimed apex, or the TXT proof", () => {
    const claimed = ownershipLostProblem("docs.example.com", "claimed", "example.com")
    expect(claimed.code).toBe("ownership_lost")
    expect(claimed.message).toContain("example.com and every name under it")
    const proved = ownershipLostProblem("docs.example.com", "proved")
    expect(proved.code).toBe("ownership_lost")
    expect(proved.message).toContain("TXT")
    expect(proved.message).toContain("Verify")
  })
})

describe("wildcardProbeName", () => {
  it.each([
    ["docs.example.com", "x1.example.com"],
    ["a.b.example.com", "x1.b.example.com"],
    ["docs.example.co.uk", "x1.example.co.uk"]
  ])("probes under the parent of %s: %s", (hostname, probe) => {
    expect(wildcardProbeName(hostname, "x1")).toBe(probe)
  })

  // A wildcard under a public suffix is not the owner's to create, nor an apex's to claim.
  it.each(["example.com", "example.co.uk", "xn--bcher-kva.de"])(
    "probes nothing for the apex %s",
    (hostname) => {
      expect(wildcardProbeName(hostname, "x1")).toBeUndefined()
    }
  )

  it("wildcard_record names the wildcard and the apex to claim", () => {
    const problem = wildcardProblem("docs.example.com", "x1.example.com", "example.com")
    expect(problem.code).toBe("wildcard_record")
    expect(problem.found).toStrictEqual(["*.example.com"])
    expect(problem.message).toContain("x1.example.com")
    expect(problem.message).toContain("claim example.com")
  })
})
