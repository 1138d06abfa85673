import { describe, expect, it } from "@effect/vitest"
import {
  DeployRequired,
  DomainNotFound,
  HostnameTaken,
  InvalidDomainRequest,
  PlanRequired
} from "@petstore/domains"
import {
  changePlan,
  createProject,
  ProjectId,
  ProjectNotFound,
  recordProjectDeploy
} from "@petstore/projects"
import {
  DomainConfig,
  DomainRedirect,
  defaultDomainConfig,
  getDomainConfig,
  putDomainConfig,
  resolveEdge
} from "@petstore/serving"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import {
  addDomain,
  checkDueCustomDomains,
  getDomain,
  listDomains,
  removeDomain,
  verifyNow
} from "../src/index.js"
import {
  aliasToTarget,
  cnameTarget,
  cnameToTarget,
  FakeWorld,
  fakeWorld,
  nxdomain,
  records,
  servfail
} from "./support/CustomDomainWorld.js"
import {
  acme,
  deployedProject,
  expectFailure,
  hour,
  minute,
  nowDate,
  rival,
  second,
  t0,
  verifiedDomain
} from "./support/UseCases.js"

const handbook = ProjectId.make("handbook")
const guide = ProjectId.make("guide")

describe("addDomain", () => {
  it.effect("adds a pending subdomain with its CNAME instruction, due for a check at once", () =>
    Effect.gen(function* () {
      yield* deployedProject(handbook)
      yield* TestClock.adjust("5 minutes")
      const domain = yield* addDomain(acme, handbook, "Docs.Example.COM.")
      expect(domain.hostname).toBe("docs.example.com")
      expect(domain.projectId).toBe("handbook")
      expect(domain.kind).toBe("subdomain")
      expect(domain.status).toBe("pending")
      expect({ ...domain.dnsRecord }).toStrictEqual({
        type: "CNAME",
        name: "docs.example.com",
        value: cnameTarget,
        ttl: 3600
      })
      expect(domain.createdAt).toStrictEqual(new Date(t0 + 5 * minute))
      expect(domain.verification.nextCheckAt).toStrictEqual(new Date(t0 + 5 * minute))
      expect(domain.verification.deadline).toStrictEqual(new Date(t0 + 5 * minute + 48 * hour))
      expect(yield* getDomain(acme, handbook, "DOCS.example.com")).toStrictEqual(domain)
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("adds an apex with an ALIAS instruction", () =>
    Effect.gen(function* () {
      yield* deployedProject(handbook, "enterprise")
      const domain = yield* addDomain(acme, handbook, "example.co.uk")
      expect(domain.kind).toBe("apex")
      expect(domain.dnsRecord.type).toBe("ALIAS")
      expect(domain.dnsRecord.value).toBe(cnameTarget)
      expect(domain.dnsRecord.ttl).toBe(3600)
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("refuses the free plan with PlanRequired", () =>
    Effect.gen(function* () {
      yield* deployedProject(handbook, "free")
      yield* expectFailure(addDomain(acme, handbook, "docs.example.com"), new PlanRequired())
      expect((yield* listDomains(acme, handbook)).domains).toStrictEqual([])
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("refuses a project never deployed, or only deployed with failures, with DeployRequired", () =>
    Effect.gen(function* () {
      yield* createProject(acme, handbook, "pro")
      yield* expectFailure(addDomain(acme, handbook, "docs.example.com"), new DeployRequired())
      yield* recordProjectDeploy(acme, handbook, "failed")
      yield* expectFailure(addDomain(acme, handbook, "docs.example.com"), new DeployRequired())
      expect((yield* listDomains(acme, handbook)).domains).toStrictEqual([])
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("counts a project as deployed after a failed deploy that followed a success", () =>
    Effect.gen(function* () {
      yield* deployedProject(handbook)
      yield* recordProjectDeploy(acme, handbook, "failed")
      expect((yield* addDomain(acme, handbook, "docs.example.com")).status).toBe("pending")
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect.each<readonly [string, string]>([
    ["", "hostname: must be a hostname such as docs.example.com"],
    ["localhost", "hostname: must have at least two labels, such as example.com"],
    ["my_docs.example.com", "hostname: must have labels of letters, digits and inner hyphens only"],
    ["https://docs.example.com/", "hostname: must be a hostname such as docs.example.com"],
    ["1.2.3.4", "hostname: must be a name, not an address"],
    ["co.uk", "hostname: must be under a public suffix such as .com"],
    ["handbook.docs-platform.net", "hostname: must not be under docs-platform.net"],
    ["guide.docs-platform.net", "hostname: must not be under docs-platform.net"]
  ])("refuses %j with InvalidDomainRequest %j", ([hostname, message]) =>
    Effect.gen(function* () {
      yield* deployedProject(handbook)
      yield* expectFailure(addDomain(acme, handbook, hostname), new InvalidDomainRequest({ message }))
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect(
    "answers ProjectNotFound for another account's project, as for a project that does not exist",
    () =>
      Effect.gen(function* () {
        yield* deployedProject(handbook)
        yield* expectFailure(
          addDomain(rival, handbook, "docs.example.com"),
          new ProjectNotFound({ id: "handbook" })
        )
        yield* expectFailure(
          addDomain(rival, guide, "docs.example.com"),
          new ProjectNotFound({ id: "guide" })
        )
        yield* expectFailure(listDomains(rival, handbook), new ProjectNotFound({ id: "handbook" }))
        yield* expectFailure(getDomainConfig(rival, handbook), new ProjectNotFound({ id: "handbook" }))
        yield* expectFailure(changePlan(rival, handbook, "free"), new ProjectNotFound({ id: "handbook" }))
        yield* expectFailure(
          recordProjectDeploy(rival, handbook, "failed"),
          new ProjectNotFound({ id: "handbook" })
        )
        expect((yield* listDomains(acme, handbook)).domains).toStrictEqual([])
      }).pipe(Effect.provide(fakeWorld))
  )

  it.effect(
    "refuses a hostname another project of the same account has (HostnameTaken), whatever its spelling",
    () =>
      Effect.gen(function* () {
        yield* deployedProject(handbook)
        yield* deployedProject(guide)
        yield* addDomain(acme, handbook, "docs.example.com")
        for (const [project, spelling] of [
          [handbook, "docs.example.com"],
          [guide, "DOCS.example.com."]
        ] as const) {
          yield* expectFailure(
            addDomain(acme, project, spelling),
            new HostnameTaken({ hostname: "docs.example.com" })
          )
        }
        expect((yield* listDomains(acme, guide)).domains).toStrictEqual([])
      }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("adds a hostname another account has too, its ownership record required for both", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* deployedProject(handbook)
      yield* deployedProject(guide, "pro", rival)
      const first = yield* addDomain(acme, handbook, "docs.example.com")
      expect(first.ownership.required).toBe(false)
      const contender = yield* addDomain(rival, guide, "Docs.Example.com")
      expect(contender.status).toBe("pending")
      expect(contender.ownership.required).toBe(true)
      expect(contender.ownership.name).toBe("_petstore-challenge.docs.example.com")
      expect(contender.ownership.value).not.toBe(first.ownership.value)
      const stored = Option.getOrThrow(yield* world.storedDomain("docs.example.com", handbook))
      expect(stored.ownership.required).toBe(true)
      expect(stored.ownership.value).toBe(first.ownership.value)
    }).pipe(Effect.provide(fakeWorld))
  )
})

describe("verifyNow", () => {
  it.effect("with no record: pending, record_not_found, rechecked 30 s later, a fresh 48 h window", () =>
    Effect.gen(function* () {
      yield* deployedProject(handbook)
      yield* addDomain(acme, handbook, "docs.example.com")
      yield* TestClock.adjust("1 hour")
      const domain = yield* verifyNow(acme, handbook, "docs.example.com")
      const now = yield* nowDate
      expect(domain.status).toBe("pending")
      expect(domain.verification.problems.map((problem) => problem.code)).toStrictEqual(["record_not_found"])
      expect(domain.verification.lastCheckedAt).toStrictEqual(now)
      expect(domain.verification.nextCheckAt).toStrictEqual(new Date(now.getTime() + 30 * second))
      expect(domain.verification.deadline).toStrictEqual(new Date(now.getTime() + 48 * hour))
      const world = yield* FakeWorld
      expect(yield* world.storedDomain(domain.hostname)).toStrictEqual(Option.some(domain))
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("asks a subdomain's addresses only when it has no CNAME; an apex's and the target's always", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* deployedProject(handbook)
      for (const hostname of ["docs.example.com", "www.example.com", "blocked.example.com", "example.org"])
        yield* addDomain(acme, handbook, hostname)
      yield* world.setDns("docs.example.com", cnameToTarget)
      yield* world.setDns("www.example.com", { cname: records("elsewhere.example.net") })
      yield* world.setDns("blocked.example.com", { cname: nxdomain, addresses: records("192.0.2.1") })
      const addressLookups = Effect.map(world.lookups, (all) =>
        all.filter((lookup) => lookup.startsWith("addresses "))
      )
      const asked = (hostname: string) =>
        Effect.gen(function* () {
          const before = (yield* addressLookups).length
          yield* verifyNow(acme, handbook, hostname)
          return (yield* addressLookups).slice(before)
        })
      expect(yield* asked("docs.example.com")).toStrictEqual([])
      expect(yield* asked("www.example.com")).toStrictEqual([])
      expect(yield* asked("blocked.example.com")).toStrictEqual(["addresses blocked.example.com"])
      expect([...(yield* asked("example.org"))].sort()).toStrictEqual(
        ["addresses example.org", `addresses ${cnameTarget}`].sort()
      )
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("once DNS is fixed: verified, certificate pending, no problems", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* deployedProject(handbook)
      yield* addDomain(acme, handbook, "docs.example.com")
      yield* world.setDns("docs.example.com", { cname: nxdomain, addresses: records("192.0.2.1") })
      const blocked = yield* verifyNow(acme, handbook, "docs.example.com")
      expect(blocked.verification.problems.map((problem) => problem.code)).toStrictEqual([
        "conflicting_record"
      ])
      expect(blocked.verification.problems[0]?.found).toStrictEqual(["A 192.0.2.1"])
      yield* world.setDns("docs.example.com", { cname: records(`${cnameTarget.toUpperCase()}.`) })
      const domain = yield* verifyNow(acme, handbook, "docs.example.com")
      expect(domain.status).toBe("verified")
      expect(domain.certificate.status).toBe("pending")
      expect(domain.verification.problems).toStrictEqual([])
      expect(domain.verification.nextCheckAt).toBeNull()
      expect((yield* listDomains(acme, handbook)).domains).toStrictEqual([domain])
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("verifies an apex by its addresses, looking up the target's", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* deployedProject(handbook)
      yield* addDomain(acme, handbook, "example.com")
      yield* world.setDns("example.com", { cname: records(cnameTarget), addresses: records("203.0.113.10") })
      const alias = yield* verifyNow(acme, handbook, "example.com")
      expect(alias.verification.problems.map((problem) => problem.code)).toStrictEqual([
        "apex_requires_alias"
      ])
      yield* world.setDns("example.com", aliasToTarget)
      expect((yield* verifyNow(acme, handbook, "example.com")).status).toBe("verified")
      expect(yield* world.lookups).toContain(`addresses ${cnameTarget}`)
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("revives a failed domain: a new 48 h window, and verified once DNS is right", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* deployedProject(handbook)
      yield* addDomain(acme, handbook, "docs.example.com")
      // The worker checks until the window closes.
      for (let round = 0; round < 400; round++) {
        const stored = yield* world.storedDomain("docs.example.com")
        const due = Option.getOrThrow(stored).verification.nextCheckAt
        if (due === null) break
        yield* TestClock.setTime(due.getTime())
        yield* checkDueCustomDomains({ holder: "w1", batchSize: 10, concurrency: 2, lease: "1 minute" })
      }
      const failed = yield* getDomain(acme, handbook, "docs.example.com")
      expect(failed.status).toBe("failed")
      yield* TestClock.adjust("3 days")
      const retried = yield* verifyNow(acme, handbook, "docs.example.com")
      const now = (yield* nowDate).getTime()
      expect(retried.status).toBe("pending")
      expect(retried.verification.deadline).toStrictEqual(new Date(now + 48 * hour))
      expect(retried.verification.problems.map((problem) => problem.code)).toStrictEqual(["record_not_found"])
      yield* world.setDns("docs.example.com", cnameToTarget)
      expect((yield* verifyNow(acme, handbook, "docs.example.com")).status).toBe("verified")
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("finds only the caller's own project's domains", () =>
    Effect.gen(function* () {
      yield* deployedProject(handbook)
      yield* createProject(acme, guide, "pro")
      yield* addDomain(acme, handbook, "docs.example.com")
      yield* expectFailure(
        verifyNow(acme, guide, "docs.example.com"),
        new DomainNotFound({ hostname: "docs.example.com" })
      )
      yield* expectFailure(
        verifyNow(rival, handbook, "docs.example.com"),
        new ProjectNotFound({ id: "handbook" })
      )
      yield* expectFailure(
        verifyNow(acme, handbook, "other.example.com"),
        new DomainNotFound({ hostname: "other.example.com" })
      )
      yield* expectFailure(
        getDomain(acme, handbook, "not a hostname"),
        new DomainNotFound({ hostname: "not a hostname" })
      )
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("fails with DomainNotFound when the domain is removed while it is being checked", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* deployedProject(handbook)
      yield* addDomain(acme, handbook, "docs.example.com")
      yield* world.duringLookup("docs.example.com", world.removeDirectly("docs.example.com"))
      yield* expectFailure(
        verifyNow(acme, handbook, "docs.example.com"),
        new DomainNotFound({ hostname: "docs.example.com" })
      )
      expect(yield* world.storedDomain("docs.example.com")).toStrictEqual(Option.none())
    }).pipe(Effect.provide(fakeWorld))
  )
})

describe("removeDomain", () => {
  const configured = Effect.gen(function* () {
    yield* deployedProject(handbook)
    for (const hostname of ["docs.example.com", "www.example.com", "example.com"]) {
      yield* verifiedDomain(handbook, hostname)
    }
    yield* putDomainConfig(
      acme,
      handbook,
      new DomainConfig({
        primary: "docs.example.com",
        redirects: [
          new DomainRedirect({ from: "www.example.com", to: "docs.example.com", status: 301 }),
          new DomainRedirect({ from: "example.com", to: "docs.example.com", status: 301 })
        ]
      })
    )
  })

  it.effect("drops the removed domain and its redirect from the config", () =>
    Effect.gen(function* () {
      yield* configured
      yield* removeDomain(acme, handbook, "WWW.example.com")
      const { config, domains } = yield* listDomains(acme, handbook)
      expect(domains.map((domain) => domain.hostname)).toStrictEqual(["docs.example.com", "example.com"])
      expect(config).toStrictEqual(
        new DomainConfig({
          primary: "docs.example.com",
          redirects: [new DomainRedirect({ from: "example.com", to: "docs.example.com", status: 301 })]
        })
      )
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("resets a removed primary to the default hostname", () =>
    Effect.gen(function* () {
      yield* configured
      yield* removeDomain(acme, handbook, "docs.example.com")
      expect(yield* getDomainConfig(acme, handbook)).toStrictEqual(
        defaultDomainConfig("handbook.docs-platform.net")
      )
      expect(yield* resolveEdge("www.example.com")).toStrictEqual({ action: "serve", projectId: "handbook" })
      expect(yield* resolveEdge("docs.example.com")).toStrictEqual({ action: "none" })
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("stores no config when none was set", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* deployedProject(handbook)
      yield* addDomain(acme, handbook, "docs.example.com")
      yield* removeDomain(acme, handbook, "docs.example.com")
      expect(yield* world.storedConfig(handbook)).toStrictEqual(Option.none())
      expect((yield* listDomains(acme, handbook)).domains).toStrictEqual([])
      yield* expectFailure(
        removeDomain(acme, handbook, "docs.example.com"),
        new DomainNotFound({ hostname: "docs.example.com" })
      )
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("cannot remove another project's or another account's domain", () =>
    Effect.gen(function* () {
      yield* deployedProject(handbook)
      yield* deployedProject(guide, "pro", rival)
      yield* addDomain(rival, guide, "docs.example.com")
      yield* expectFailure(
        removeDomain(acme, handbook, "docs.example.com"),
        new DomainNotFound({ hostname: "docs.example.com" })
      )
      yield* expectFailure(
        removeDomain(acme, guide, "docs.example.com"),
        new ProjectNotFound({ id: "guide" })
      )
      expect((yield* listDomains(rival, guide)).domains).toHaveLength(1)
    }).pipe(Effect.provide(fakeWorld))
  )
})

describe("putDomainConfig", () => {
  it.effect("stores a valid config and refuses an invalid one with the rule's field path", () =>
    Effect.gen(function* () {
      yield* deployedProject(handbook)
      yield* deployedProject(guide, "pro", rival)
      yield* verifiedDomain(handbook, "docs.example.com")
      yield* addDomain(acme, handbook, "www.example.com")
      yield* verifiedDomain(guide, "docs.other.org", rival)
      const valid = new DomainConfig({
        primary: "docs.example.com",
        redirects: [new DomainRedirect({ from: "www.example.com", to: "docs.example.com", status: 301 })]
      })
      expect(yield* putDomainConfig(acme, handbook, valid)).toStrictEqual(valid)
      expect(yield* getDomainConfig(acme, handbook)).toStrictEqual(valid)
      const primaryRule = "primary: must be handbook.docs-platform.net or a verified domain of the project"
      for (const primary of [
        "www.example.com",
        "docs.other.org",
        "guide.docs-platform.net",
        "nowhere.example.com"
      ]) {
        yield* expectFailure(
          putDomainConfig(acme, handbook, new DomainConfig({ primary, redirects: [] })),
          new InvalidDomainRequest({ message: primaryRule })
        )
      }
      yield* expectFailure(
        putDomainConfig(
          acme,
          handbook,
          new DomainConfig({
            primary: "docs.example.com",
            redirects: [new DomainRedirect({ from: "docs.other.org", to: "docs.example.com", status: 301 })]
          })
        ),
        new InvalidDomainRequest({ message: "redirects.0.from: must be a domain of the project" })
      )
      expect(yield* getDomainConfig(acme, handbook)).toStrictEqual(valid)
      yield* expectFailure(putDomainConfig(rival, handbook, valid), new ProjectNotFound({ id: "handbook" }))
    }).pipe(Effect.provide(fakeWorld))
  )
})

describe("checkDueCustomDomains", () => {
  const options = { holder: "worker-1", batchSize: 10, concurrency: 3, lease: "2 minutes" } as const

  const threeDueOneNot = Effect.gen(function* () {
    yield* deployedProject(handbook)
    for (const hostname of ["a.example.com", "b.example.com", "example.org"])
      yield* addDomain(acme, handbook, hostname)
    yield* TestClock.adjust("10 seconds")
    yield* addDomain(acme, handbook, "later.example.com")
    yield* verifyNow(acme, handbook, "later.example.com")
  })

  it.effect("checks and completes every claimed domain, and only due ones", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* threeDueOneNot
      yield* world.setDns("b.example.com", cnameToTarget)
      const now = yield* nowDate
      const round = yield* checkDueCustomDomains(options)
      expect(round).toStrictEqual({ claimed: 3, completed: 3, abandoned: 0 })
      expect(yield* world.claimCalls).toStrictEqual([
        { now, limit: 10, lease: { holder: "worker-1", until: new Date(now.getTime() + 2 * minute) } }
      ])
      for (const hostname of ["a.example.com", "b.example.com", "example.org"]) {
        const stored = Option.getOrThrow(yield* world.storedDomain(hostname))
        expect(stored.verification.lastCheckedAt).toStrictEqual(now)
        expect(stored.status).toBe(hostname === "b.example.com" ? "verified" : "pending")
        expect(yield* world.leaseOf(hostname)).toBeNull()
        expect(yield* world.lookups).toContain(`cname ${hostname}`)
      }
      // The apex needs the target's addresses; the subdomains do not (one such lookup, for example.org).
      expect((yield* world.lookups).filter((lookup) => lookup === `addresses ${cnameTarget}`)).toHaveLength(1)
      expect(
        Option.getOrThrow(yield* world.storedDomain("later.example.com")).verification.lastCheckedAt
      ).toStrictEqual(now)
      // Only the domain that just verified has work left at once: its certificate, a job of its own.
      expect(yield* checkDueCustomDomains(options)).toStrictEqual({ claimed: 1, completed: 1, abandoned: 0 })
      expect(yield* world.ordersOpened).toStrictEqual(["b.example.com"])
      expect(yield* checkDueCustomDomains(options)).toStrictEqual({ claimed: 0, completed: 0, abandoned: 0 })
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("claims at most a batch", () =>
    Effect.gen(function* () {
      yield* threeDueOneNot
      expect(yield* checkDueCustomDomains({ ...options, batchSize: 2 })).toStrictEqual({
        claimed: 2,
        completed: 2,
        abandoned: 0
      })
      expect(yield* checkDueCustomDomains({ ...options, batchSize: 2 })).toStrictEqual({
        claimed: 1,
        completed: 1,
        abandoned: 0
      })
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("reads the ownership facts of the round's checks at once, and of those only", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* threeDueOneNot
      const before = (yield* world.holderReads).length
      yield* checkDueCustomDomains(options)
      expect((yield* world.holderReads).slice(before)).toStrictEqual([
        ["a.example.com", "b.example.com", "example.org"]
      ])
      // A round of certificate work only (b verified, its order due at once) reads none.
      yield* world.setDns("b.example.com", cnameToTarget)
      yield* TestClock.adjust("1 hour")
      yield* checkDueCustomDomains(options)
      const afterChecks = (yield* world.holderReads).length
      expect(yield* checkDueCustomDomains(options)).toStrictEqual({ claimed: 1, completed: 1, abandoned: 0 })
      expect(yield* world.ordersOpened).toStrictEqual(["b.example.com"])
      expect((yield* world.holderReads).length).toBe(afterChecks)
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("gives every lease back when the round's ownership facts cannot be read", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* threeDueOneNot
      yield* world.failHolderReads
      const failure = yield* Effect.flip(checkDueCustomDomains(options))
      expect(failure._tag).toBe("StorageError")
      for (const hostname of ["a.example.com", "b.example.com", "example.org"]) {
        expect(yield* world.leaseOf(hostname)).toBeNull()
        expect(Option.getOrThrow(yield* world.storedDomain(hostname)).verification.lastCheckedAt).toBeNull()
      }
      expect([...(yield* world.releases)].sort()).toStrictEqual([
        "a.example.com",
        "b.example.com",
        "example.org"
      ])
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("counts a check whose completion returns false (domain removed meanwhile) as abandoned", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* threeDueOneNot
      yield* world.duringLookup("b.example.com", world.removeDirectly("b.example.com"))
      expect(yield* checkDueCustomDomains(options)).toStrictEqual({ claimed: 3, completed: 2, abandoned: 1 })
      expect(yield* world.storedDomain("b.example.com")).toStrictEqual(Option.none())
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect(
    "counts a check whose lease was taken over meanwhile as abandoned, and keeps the new holder's lease",
    () =>
      Effect.gen(function* () {
        const world = yield* FakeWorld
        yield* threeDueOneNot
        yield* world.duringLookup("a.example.com", world.stealLease("a.example.com", "worker-2"))
        const before = Option.getOrThrow(yield* world.storedDomain("a.example.com"))
        expect(yield* checkDueCustomDomains(options)).toStrictEqual({
          claimed: 3,
          completed: 2,
          abandoned: 1
        })
        expect(yield* world.storedDomain("a.example.com")).toStrictEqual(Option.some(before))
        expect((yield* world.leaseOf("a.example.com"))?.holder).toBe("worker-2")
      }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("gives a lease back when storing one result fails, and still completes the others", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* threeDueOneNot
      yield* world.failCompletionOf("a.example.com")
      const round = yield* checkDueCustomDomains({ ...options, concurrency: 1 })
      expect(round).toStrictEqual({ claimed: 3, completed: 2, abandoned: 1 })
      expect(yield* world.releases).toStrictEqual(["a.example.com"])
      expect(yield* world.leaseOf("a.example.com")).toBeNull()
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("a domain whose record never appears is checked at each nextCheckAt until it fails at 48 h", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* deployedProject(handbook)
      const added = yield* addDomain(acme, handbook, "docs.example.com")
      const deadline = added.verification.deadline.getTime()
      const checkTimes: Array<number> = []
      for (let round = 0; round < 400; round++) {
        const due = Option.getOrThrow(yield* world.storedDomain("docs.example.com")).verification.nextCheckAt
        if (due === null) break
        // Not a millisecond early.
        yield* TestClock.setTime(due.getTime() - 1)
        if (due.getTime() - 1 >= t0) expect((yield* checkDueCustomDomains(options)).claimed).toBe(0)
        yield* TestClock.setTime(due.getTime())
        expect(yield* checkDueCustomDomains(options)).toStrictEqual({
          claimed: 1,
          completed: 1,
          abandoned: 0
        })
        checkTimes.push(due.getTime())
        const stored = Option.getOrThrow(yield* world.storedDomain("docs.example.com"))
        expect(stored.status).toBe(due.getTime() < deadline ? "pending" : "failed")
      }
      const failed = yield* getDomain(acme, handbook, "docs.example.com")
      expect(failed.status).toBe("failed")
      expect(failed.verification.problems.map((problem) => problem.code)).toStrictEqual([
        "verification_timed_out",
        "record_not_found"
      ])
      expect(checkTimes[0]).toBe(t0)
      expect((checkTimes[1] ?? 0) - t0).toBe(30 * second)
      expect(checkTimes.at(-1)).toBe(deadline)
      const intervals = checkTimes.slice(1).map((time, i) => time - (checkTimes[i] ?? 0))
      expect(Math.max(...intervals)).toBe(15 * minute)
      yield* TestClock.adjust("1 day")
      expect((yield* checkDueCustomDomains(options)).claimed).toBe(0)
    }).pipe(Effect.provide(fakeWorld))
  )

  // Verify on a verified domain must not make it due on every round while DNS gives no answer: the
  // one claim is its certificate work, which then backs off (30 s at least) since DNS cannot be checked.
  it.effect("does not recheck a verified domain on every round while DNS gives no answer", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* deployedProject(handbook)
      yield* verifiedDomain(handbook, "docs.example.com")
      yield* world.setDns("docs.example.com", { cname: servfail, addresses: servfail })
      expect((yield* verifyNow(acme, handbook, "docs.example.com")).status).toBe("verified")
      const claimedPerRound: Array<number> = []
      for (let round = 0; round < 5; round++) {
        yield* TestClock.adjust("1 second")
        claimedPerRound.push((yield* checkDueCustomDomains(options)).claimed)
      }
      expect(Option.getOrThrow(yield* world.storedDomain("docs.example.com")).status).toBe("verified")
      expect(claimedPerRound).toStrictEqual([1, 0, 0, 0, 0])
      expect(yield* world.ordersOpened).toStrictEqual([])
    }).pipe(Effect.provide(fakeWorld))
  )
})
