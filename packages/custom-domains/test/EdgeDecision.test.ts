import { describe, expect, it } from "@effect/vitest"
import { applyVerdict, type CustomDomainStatus, Problem } from "@petstore/domains"
import { addedDomain } from "@petstore/domains/testing"
import { AccountName } from "@petstore/kernel"
import {
  changePlan,
  createProject,
  Deploy,
  type Plan,
  Project,
  ProjectId,
  recordProjectDeploy
} from "@petstore/projects"
import {
  DomainConfig,
  DomainRedirect,
  decideForCustomDomain,
  decideForDefaultHostname,
  defaultDomainConfig,
  putDomainConfig,
  resolveEdge
} from "@petstore/serving"
import { Effect } from "effect"
import { addDomain, removeDomain, verifyNow } from "../src/index.js"
import {
  aliasToTarget,
  cnameTarget,
  cnameToTarget,
  FakeWorld,
  fakeWorld,
  servfail
} from "./support/CustomDomainWorld.js"

const t0 = new Date("2027-03-01T12:00:00.000Z")
const acme = AccountName.make("acme")
const handbook = ProjectId.make("handbook")

type DeployHistory = "none" | "succeeded" | "failed only" | "failed after a success"
const projectWith = (plan: Plan, history: DeployHistory) =>
  new Project({
    id: handbook,
    account: acme,
    plan,
    lastDeploy:
      history === "none"
        ? null
        : new Deploy({ status: history === "succeeded" ? "succeeded" : "failed", at: t0 }),
    lastSucceededDeployAt: history === "succeeded" || history === "failed after a success" ? t0 : null,
    createdAt: t0
  })
const domainWith = (status: CustomDomainStatus, hostname = "docs.example.com") => {
  const domain = addedDomain(hostname, handbook, cnameTarget, t0)
  if (status === "verified") return applyVerdict(domain, { _tag: "Verified", problems: [] }, t0)
  const problems = [new Problem({ code: "record_not_found", message: "none" })]
  const when = status === "failed" ? new Date(t0.getTime() + 48 * 3_600_000) : t0
  return applyVerdict(domain, { _tag: "Unverified", problems }, when)
}
const defaultConfig = defaultDomainConfig("handbook.docs-platform.net")

const plans: ReadonlyArray<Plan> = ["free", "pro", "enterprise"]
const histories: ReadonlyArray<DeployHistory> = ["none", "succeeded", "failed only", "failed after a success"]
const statuses: ReadonlyArray<CustomDomainStatus> = ["pending", "verified", "failed"]

describe("decideForDefaultHostname", () => {
  it.each(plans.flatMap((plan) => histories.map((history) => [plan, history] as const)))(
    "a %s project, deploys: %s",
    (plan, history) => {
      const deployed = history === "succeeded" || history === "failed after a success"
      expect(decideForDefaultHostname(projectWith(plan, history))).toStrictEqual(
        deployed ? { action: "serve", projectId: "handbook" } : { action: "none" }
      )
    }
  )
})

describe("decideForCustomDomain", () => {
  const cases = statuses.flatMap((status) =>
    plans.flatMap((plan) => histories.map((history) => [status, plan, history] as const))
  )

  it.each(cases)("a %s domain of a %s project, deploys: %s", (status, plan, history) => {
    const served =
      status === "verified" &&
      plan !== "free" &&
      (history === "succeeded" || history === "failed after a success")
    expect(
      decideForCustomDomain(domainWith(status), projectWith(plan, history), defaultConfig)
    ).toStrictEqual(served ? { action: "serve", projectId: "handbook" } : { action: "none" })
    const redirecting = new DomainConfig({
      primary: "www.example.com",
      redirects: [new DomainRedirect({ from: "docs.example.com", to: "www.example.com", status: 301 })]
    })
    expect(decideForCustomDomain(domainWith(status), projectWith(plan, history), redirecting)).toStrictEqual(
      served ? { action: "redirect", location: "https://www.example.com/", status: 301 } : { action: "none" }
    )
  })

  it("serves a domain that is not the source of any redirect, even when others redirect", () => {
    const config = new DomainConfig({
      primary: "docs.example.com",
      redirects: [new DomainRedirect({ from: "www.example.com", to: "docs.example.com", status: 301 })]
    })
    expect(
      decideForCustomDomain(domainWith("verified"), projectWith("pro", "succeeded"), config)
    ).toStrictEqual({
      action: "serve",
      projectId: "handbook"
    })
  })
})

/** A paid project, deployed, with verified docs.example.com and www.example.com, and example.com pending. */
const servedProject = Effect.gen(function* () {
  const world = yield* FakeWorld
  yield* createProject(acme, handbook, "pro")
  yield* recordProjectDeploy(acme, handbook, "succeeded")
  for (const hostname of ["docs.example.com", "www.example.com", "bücher.de"]) {
    yield* world.setDns(
      hostname === "bücher.de" ? "xn--bcher-kva.de" : hostname,
      hostname === "bücher.de" ? aliasToTarget : cnameToTarget
    )
    yield* addDomain(acme, handbook, hostname)
    const domain = yield* verifyNow(acme, handbook, hostname)
    expect(domain.status).toBe("verified")
  }
  yield* addDomain(acme, handbook, "example.com")
  expect((yield* verifyNow(acme, handbook, "example.com")).status).toBe("pending")
  return world
})

const serve = { action: "serve", projectId: "handbook" } as const
const none = { action: "none" } as const

describe("resolveEdge", () => {
  it.effect("serves the default hostname of a deployed project, in any spelling", () =>
    Effect.gen(function* () {
      yield* servedProject
      for (const host of [
        "handbook.docs-platform.net",
        "HANDBOOK.Docs-Platform.NET",
        "handbook.docs-platform.net:443",
        "handbook.docs-platform.net.",
        " handbook.docs-platform.net "
      ]) {
        expect(yield* resolveEdge(host), host).toStrictEqual(serve)
      }
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("reads an internationalised default hostname in punycode, as the edge does", () =>
    Effect.gen(function* () {
      const bucher = ProjectId.make("xn--bcher-kva")
      yield* createProject(acme, bucher, "free")
      yield* recordProjectDeploy(acme, bucher, "succeeded")
      for (const host of ["xn--bcher-kva.docs-platform.net", "Bücher.docs-platform.net:443"]) {
        expect(yield* resolveEdge(host), host).toStrictEqual({ action: "serve", projectId: bucher })
      }
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("serves the default hostname on the free plan too, once deployed", () =>
    Effect.gen(function* () {
      yield* createProject(acme, handbook, "free")
      expect(yield* resolveEdge("handbook.docs-platform.net")).toStrictEqual(none)
      yield* recordProjectDeploy(acme, handbook, "failed")
      expect(yield* resolveEdge("handbook.docs-platform.net")).toStrictEqual(none)
      yield* recordProjectDeploy(acme, handbook, "succeeded")
      expect(yield* resolveEdge("handbook.docs-platform.net")).toStrictEqual(serve)
      yield* recordProjectDeploy(acme, handbook, "failed")
      expect(yield* resolveEdge("handbook.docs-platform.net")).toStrictEqual(serve)
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("answers none for unknown hosts and names that are not a project's", () =>
    Effect.gen(function* () {
      yield* servedProject
      for (const host of [
        "unknown.example.com",
        "nobody.docs-platform.net",
        "a.handbook.docs-platform.net",
        "docs-platform.net",
        "",
        "1.2.3.4",
        "[::1]:8080",
        "docs.example.com/path",
        "-bad-.docs-platform.net",
        "localhost"
      ]) {
        expect(yield* resolveEdge(host), host).toStrictEqual(none)
      }
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("serves a verified domain of a paid, deployed project, in any spelling", () =>
    Effect.gen(function* () {
      yield* servedProject
      for (const host of [
        "docs.example.com",
        "DOCS.EXAMPLE.COM",
        "docs.example.com:8443",
        "Docs.Example.Com:443",
        "docs.example.com.",
        "docs.example.com.:443",
        "xn--bcher-kva.de",
        "Bücher.de",
        "BÜCHER.DE:443"
      ]) {
        expect(yield* resolveEdge(host), host).toStrictEqual(serve)
      }
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("answers none for a pending domain", () =>
    Effect.gen(function* () {
      yield* servedProject
      expect(yield* resolveEdge("example.com")).toStrictEqual(none)
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("redirects a `from` domain to https://<primary>/ with 301, in any spelling", () =>
    Effect.gen(function* () {
      yield* servedProject
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
      const redirect = { action: "redirect", location: "https://docs.example.com/", status: 301 }
      for (const host of ["www.example.com", "WWW.Example.com:443", "www.example.com."]) {
        expect(yield* resolveEdge(host), host).toStrictEqual(redirect)
      }
      expect(yield* resolveEdge("docs.example.com")).toStrictEqual(serve)
      // The redirect from the pending apex does nothing until it verifies.
      expect(yield* resolveEdge("example.com")).toStrictEqual(none)
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("redirects to the default hostname when it is the primary", () =>
    Effect.gen(function* () {
      yield* servedProject
      yield* putDomainConfig(
        acme,
        handbook,
        new DomainConfig({
          primary: "handbook.docs-platform.net",
          redirects: [
            new DomainRedirect({ from: "www.example.com", to: "handbook.docs-platform.net", status: 301 })
          ]
        })
      )
      expect(yield* resolveEdge("www.example.com")).toStrictEqual({
        action: "redirect",
        location: "https://handbook.docs-platform.net/",
        status: 301
      })
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("stops serving and redirecting on a downgrade to free, and resumes on an upgrade", () =>
    Effect.gen(function* () {
      yield* servedProject
      yield* putDomainConfig(
        acme,
        handbook,
        new DomainConfig({
          primary: "docs.example.com",
          redirects: [new DomainRedirect({ from: "www.example.com", to: "docs.example.com", status: 301 })]
        })
      )
      yield* changePlan(acme, handbook, "free")
      expect(yield* resolveEdge("docs.example.com")).toStrictEqual(none)
      expect(yield* resolveEdge("www.example.com")).toStrictEqual(none)
      expect(yield* resolveEdge("handbook.docs-platform.net")).toStrictEqual(serve)
      yield* changePlan(acme, handbook, "enterprise")
      expect(yield* resolveEdge("docs.example.com")).toStrictEqual(serve)
      expect((yield* resolveEdge("www.example.com")).action).toBe("redirect")
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("keeps serving a verified domain after a failed deploy that followed a success", () =>
    Effect.gen(function* () {
      yield* servedProject
      yield* recordProjectDeploy(acme, handbook, "failed")
      expect(yield* resolveEdge("docs.example.com")).toStrictEqual(serve)
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("keeps serving a verified domain whose recheck gets no DNS answer", () =>
    Effect.gen(function* () {
      const world = yield* servedProject
      yield* world.setDns("docs.example.com", { cname: servfail, addresses: servfail })
      const checked = yield* verifyNow(acme, handbook, "docs.example.com")
      expect(checked.status).toBe("verified")
      expect(checked.verification.problems.map((problem) => problem.code)).toStrictEqual(["dns_error"])
      expect(yield* resolveEdge("docs.example.com")).toStrictEqual(serve)
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("answers none for a removed domain from the moment removeDomain returns", () =>
    Effect.gen(function* () {
      yield* servedProject
      yield* putDomainConfig(
        acme,
        handbook,
        new DomainConfig({
          primary: "docs.example.com",
          redirects: [new DomainRedirect({ from: "www.example.com", to: "docs.example.com", status: 301 })]
        })
      )
      yield* removeDomain(acme, handbook, "www.example.com")
      expect(yield* resolveEdge("www.example.com")).toStrictEqual(none)
      expect(yield* resolveEdge("docs.example.com")).toStrictEqual(serve)
      yield* removeDomain(acme, handbook, "docs.example.com")
      expect(yield* resolveEdge("docs.example.com")).toStrictEqual(none)
      expect(yield* resolveEdge("handbook.docs-platform.net")).toStrictEqual(serve)
    }).pipe(Effect.provide(fakeWorld))
  )
})
