import { describe, expect, it } from "@effect/vitest"
import { applyVerdict, type CustomDomain, type CustomDomainStatus, Problem } from "@petstore/domains"
import { addedDomain } from "@petstore/domains/testing"
import { issuesOf } from "@petstore/kernel/testing"
import { ProjectId } from "@petstore/projects"
import { Result, Schema } from "effect"
import fc from "fast-check"
import {
  DomainConfig,
  DomainRedirect,
  defaultDomainConfig,
  validateDomainConfig,
  withoutDomain
} from "../src/index.js"

const target = "cname.docs-platform.net"
const t0 = new Date("2027-03-01T12:00:00.000Z")
const defaultHostname = "handbook.docs-platform.net"
const handbook = ProjectId.make("handbook")
const other = ProjectId.make("other")

const domainOf = (hostname: string, status: CustomDomainStatus, projectId = handbook): CustomDomain => {
  const domain = addedDomain(hostname, projectId, target, t0)
  if (status === "verified") return applyVerdict(domain, { _tag: "Verified", problems: [] }, t0)
  const problems = [new Problem({ code: "record_not_found", message: "No record was found" })]
  return applyVerdict(
    domain,
    { _tag: "Unverified", problems },
    status === "failed" ? new Date(t0.getTime() + 48 * 3_600_000) : t0
  )
}

const docs = domainOf("docs.example.com", "verified")
const www = domainOf("www.example.com", "verified")
const apex = domainOf("example.com", "verified")
const pending = domainOf("new.example.com", "pending")
const failed = domainOf("old.example.com", "failed")
const domains = [docs, www, apex, pending, failed]
/** Verified, but another project's: never in this project's list. */
const othersDomain = domainOf("docs.other.org", "verified", other)

const redirect = (from: string, to: string) => new DomainRedirect({ from, to, status: 301 })
const config = (primary: string, ...redirects: ReadonlyArray<readonly [string, string]>) =>
  new DomainConfig({ primary, redirects: redirects.map(([from, to]) => redirect(from, to)) })
const validate = (candidate: DomainConfig) => validateDomainConfig(candidate, defaultHostname, domains)

const primaryRule = `primary: must be ${defaultHostname} or a verified domain of the project`

describe("validateDomainConfig accepts", () => {
  it.each([
    ["the default config", defaultDomainConfig(defaultHostname)],
    [
      "the default hostname as primary, redirects from its domains",
      config(defaultHostname, [docs.hostname, defaultHostname])
    ],
    ["a verified domain as primary", config(docs.hostname)],
    ["a verified apex as primary", config(apex.hostname)],
    [
      "several redirects to a verified primary",
      config(
        docs.hostname,
        [www.hostname, docs.hostname],
        [apex.hostname, docs.hostname],
        [pending.hostname, docs.hostname]
      )
    ],
    // A redirect's `from` is any domain of the project; the edge only acts on verified ones.
    ["a redirect from a pending domain", config(docs.hostname, [pending.hostname, docs.hostname])],
    ["a redirect from a failed domain", config(docs.hostname, [failed.hostname, docs.hostname])]
  ])("%s", (_, candidate) => {
    expect(validate(candidate)).toStrictEqual(Result.succeed(candidate))
  })
})

describe("validateDomainConfig refuses", () => {
  it.each([
    ["a pending domain as primary", config(pending.hostname), primaryRule],
    ["a failed domain as primary", config(failed.hostname), primaryRule],
    ["an unknown primary", config("unknown.example.com"), primaryRule],
    ["another project's verified domain as primary", config(othersDomain.hostname), primaryRule],
    ["another project's default hostname as primary", config("other.docs-platform.net"), primaryRule],
    ["the primary in another case", config("DOCS.example.com"), primaryRule],
    ["an empty primary", config(""), primaryRule],
    [
      "a redirect from an unknown hostname",
      config(docs.hostname, ["unknown.example.com", docs.hostname]),
      "redirects.0.from: must be a domain of the project"
    ],
    [
      "a redirect from another project's domain",
      config(docs.hostname, [othersDomain.hostname, docs.hostname]),
      "redirects.0.from: must be a domain of the project"
    ],
    [
      // The default hostname is not one of the project's (custom) domains.
      "a redirect from the default hostname",
      config(docs.hostname, [defaultHostname, docs.hostname]),
      "redirects.0.from: must be a domain of the project"
    ],
    [
      "a redirect from the primary",
      config(docs.hostname, [docs.hostname, docs.hostname]),
      "redirects.0.from: must not be the primary"
    ],
    [
      "a redirect from the primary to another domain (a loop through the primary)",
      config(docs.hostname, [www.hostname, docs.hostname], [docs.hostname, www.hostname]),
      "redirects.1.from: must not be the primary"
    ],
    [
      "a duplicate from",
      config(docs.hostname, [www.hostname, docs.hostname], [www.hostname, docs.hostname]),
      "redirects.1.from: appears in more than one redirect"
    ],
    [
      "a redirect to another domain than the primary",
      config(docs.hostname, [www.hostname, apex.hostname]),
      `redirects.0.to: must be the primary, ${docs.hostname}`
    ],
    [
      "a chain (www → apex → docs)",
      config(docs.hostname, [apex.hostname, docs.hostname], [www.hostname, apex.hostname]),
      `redirects.1.to: must be the primary, ${docs.hostname}`
    ],
    [
      "a loop between two non-primary domains",
      config(docs.hostname, [www.hostname, apex.hostname], [apex.hostname, www.hostname]),
      `redirects.0.to: must be the primary, ${docs.hostname}`
    ],
    [
      "a redirect to itself",
      config(docs.hostname, [www.hostname, www.hostname]),
      `redirects.0.to: must be the primary, ${docs.hostname}`
    ],
    [
      "a redirect to an external site",
      config(defaultHostname, [www.hostname, "evil.example.net"]),
      `redirects.0.to: must be the primary, ${defaultHostname}`
    ],
    [
      "a later redirect breaking a rule (the path names its index)",
      config(
        docs.hostname,
        [www.hostname, docs.hostname],
        [apex.hostname, docs.hostname],
        ["x.example.com", docs.hostname]
      ),
      "redirects.2.from: must be a domain of the project"
    ]
  ])("%s", (_, candidate, rule) => {
    expect(validate(candidate)).toStrictEqual(Result.fail(rule))
  })

  it.each([302, 307, 308, 200, "301"])("a redirect status other than 301 (%j), when decoding", (status) => {
    const input = { primary: docs.hostname, redirects: [{ from: www.hostname, to: docs.hostname, status }] }
    expect(issuesOf(DomainConfig, input)).toStrictEqual([
      { _tag: "InvalidType", path: ["redirects", 0, "status"], message: "must be 301" }
    ])
  })

  it("decodes a redirect with status 301", () => {
    expect(
      Schema.decodeUnknownSync(DomainConfig)({
        primary: docs.hostname,
        redirects: [{ from: www.hostname, to: docs.hostname, status: 301 }]
      })
    ).toStrictEqual(config(docs.hostname, [www.hostname, docs.hostname]))
  })
})

describe("withoutDomain", () => {
  const full = config(docs.hostname, [www.hostname, docs.hostname], [apex.hostname, docs.hostname])

  it("drops the redirect from a removed domain, keeping the rest", () => {
    expect(withoutDomain(full, www.hostname, defaultHostname)).toStrictEqual(
      config(docs.hostname, [apex.hostname, docs.hostname])
    )
  })

  it("resets a removed primary to the default hostname, without redirects (they pointed to it)", () => {
    expect(withoutDomain(full, docs.hostname, defaultHostname)).toStrictEqual(
      defaultDomainConfig(defaultHostname)
    )
  })

  it("leaves the config alone for a domain it does not mention", () => {
    expect(withoutDomain(full, pending.hostname, defaultHostname)).toStrictEqual(full)
    expect(withoutDomain(defaultDomainConfig(defaultHostname), docs.hostname, defaultHostname)).toStrictEqual(
      defaultDomainConfig(defaultHostname)
    )
  })

  it("keeps redirects to the default primary when one of their sources goes", () => {
    const toDefault = config(
      defaultHostname,
      [www.hostname, defaultHostname],
      [apex.hostname, defaultHostname]
    )
    expect(withoutDomain(toDefault, apex.hostname, defaultHostname)).toStrictEqual(
      config(defaultHostname, [www.hostname, defaultHostname])
    )
  })
})

/* Random projects and configs. */

const pool = [
  "a.example.com",
  "b.example.com",
  "example.com",
  "c.example.org",
  "d.example.net",
  "e.example.io"
]
const status = fc.constantFrom<CustomDomainStatus>("pending", "verified", "failed")
const projectDomains = fc
  .subarray(pool)
  .chain((hostnames) =>
    fc.tuple(
      fc.constant(hostnames),
      fc.array(status, { minLength: hostnames.length, maxLength: hostnames.length })
    )
  )
  .map(([hostnames, statuses]) =>
    hostnames.map((hostname, i) => domainOf(hostname, statuses[i] ?? "pending"))
  )
const hostnameChoice = fc.constantFrom(...pool, defaultHostname, "other.docs-platform.net", "x.example.com")
const randomConfig = fc
  .tuple(hostnameChoice, fc.array(fc.tuple(hostnameChoice, hostnameChoice), { maxLength: 6 }))
  .map(([primary, redirects]) => config(primary, ...redirects))
/** Configs built the way the rules say, so that many random cases are accepted. */
const ruleAbidingConfig = (project: ReadonlyArray<CustomDomain>) => {
  const verified = project
    .filter((domain) => domain.status === "verified")
    .map((domain) => domain.hostname as string)
  return fc
    .constantFrom(defaultHostname, ...verified)
    .chain((primary) =>
      fc
        .subarray(
          project.map((domain) => domain.hostname as string).filter((hostname) => hostname !== primary)
        )
        .map((froms) => config(primary, ...froms.map((from) => [from, primary] as const)))
    )
}
const world = projectDomains.chain((project) =>
  fc.tuple(fc.constant(project), fc.oneof(randomConfig, ruleAbidingConfig(project)))
)

/** Where a request for `host` ends up after following redirects, or "loop". */
const follow = (candidate: DomainConfig, host: string): string => {
  const next = new Map(candidate.redirects.map((entry) => [entry.from, entry.to]))
  const seen = new Set<string>()
  let current = host
  while (next.has(current)) {
    if (seen.has(current)) return "loop"
    seen.add(current)
    current = next.get(current) ?? current
  }
  return current
}

describe("validateDomainConfig properties", () => {
  it("accepts only configs without chains or loops: every redirect goes to the primary in one hop", () => {
    fc.assert(
      fc.property(world, ([project, candidate]) => {
        const result = validateDomainConfig(candidate, defaultHostname, project)
        if (Result.isFailure(result)) return
        const byHostname = new Map(project.map((domain) => [domain.hostname as string, domain]))
        const { primary, redirects } = result.success
        expect(primary === defaultHostname || byHostname.get(primary)?.status === "verified").toBe(true)
        const froms = redirects.map((entry) => entry.from)
        expect(new Set(froms).size).toBe(froms.length)
        for (const entry of redirects) {
          expect(entry.to).toBe(primary)
          expect(entry.from).not.toBe(primary)
          expect(byHostname.has(entry.from)).toBe(true)
          expect(entry.status).toBe(301)
          expect(froms).not.toContain(entry.to)
          expect(follow(result.success, entry.from)).toBe(primary)
        }
        expect(follow(result.success, primary)).toBe(primary)
      }),
      { numRuns: 2000 }
    )
  })

  it("accepts every config built by the rules, and finds enough of them", () => {
    let accepted = 0
    fc.assert(
      fc.property(
        projectDomains.chain((project) => fc.tuple(fc.constant(project), ruleAbidingConfig(project))),
        ([project, candidate]) => {
          expect(validateDomainConfig(candidate, defaultHostname, project)).toStrictEqual(
            Result.succeed(candidate)
          )
          accepted += 1
        }
      )
    )
    expect(accepted).toBeGreaterThan(50)
  })

  it("refuses, with a `field: rule` message, every config with a redirect that is not one hop to the primary", () => {
    fc.assert(
      fc.property(world, ([project, candidate]) => {
        const result = validateDomainConfig(candidate, defaultHostname, project)
        const oneHop = candidate.redirects.every(
          (entry) => entry.to === candidate.primary && entry.from !== candidate.primary
        )
        if (!oneHop) expect(Result.isFailure(result)).toBe(true)
        if (Result.isFailure(result))
          expect(result.failure).toMatch(/^(primary|redirects\.\d+\.(from|to)): .+/)
      }),
      { numRuns: 1000 }
    )
  })

  it("withoutDomain keeps an accepted config acceptable once that domain is gone", () => {
    fc.assert(
      fc.property(world, fc.constantFrom(...pool), ([project, candidate], removed) => {
        if (Result.isFailure(validateDomainConfig(candidate, defaultHostname, project))) return
        const remaining = project.filter((domain) => domain.hostname !== removed)
        const after = withoutDomain(candidate, removed, defaultHostname)
        expect(validateDomainConfig(after, defaultHostname, remaining)).toStrictEqual(Result.succeed(after))
        expect(after.primary).not.toBe(removed)
        expect(after.redirects.map((entry) => entry.from)).not.toContain(removed)
      }),
      { numRuns: 1000 }
    )
  })
})
