/**
 * The ownership rules through the use cases (contract section 4), over the in-memory world: the
 * takeovers they close (a dangling record, a squatted name), who keeps a contested name, the
 * wildcard warning, and what removing a contested domain leaves alone.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Problem } from "@petstore/domains"
import { ProjectId } from "@petstore/projects"
import { resolveEdge } from "@petstore/serving"
import { Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { addDomain, checkDueCustomDomains, listDomains, removeDomain, verifyNow } from "../src/index.js"
import { cnameToTarget, FakeWorld, fakeWorld, records } from "./support/CustomDomainWorld.js"
import { acme, day, deployedProject, nowDate, rival, verifiedDomain } from "./support/UseCases.js"

const handbook = ProjectId.make("handbook")
const guide = ProjectId.make("guide")
const docs = "docs.example.com"
const none = { action: "none" }
const serves = (projectId: ProjectId) => ({ action: "serve", projectId })
const codes = (problems: ReadonlyArray<Problem>) => problems.map((problem) => problem.code)
const options = { holder: "worker-1", batchSize: 10, concurrency: 3, lease: "2 minutes" } as const

/** acme's handbook and rival's guide, both paid and deployed. */
const twoAccounts = Effect.gen(function* () {
  yield* deployedProject(handbook)
  yield* deployedProject(guide, "pro", rival)
  return yield* FakeWorld
})

/** Publishes the TXT record of `domain`'s ownership. */
const publishRecord = (domain: { readonly ownership: { readonly name: string; readonly value: string } }) =>
  Effect.flatMap(FakeWorld, (world) =>
    world.setDns(domain.ownership.name, { txt: records("v=spf1 -all", domain.ownership.value) })
  )

describe("a dangling record (the owner removed the domain and left the CNAME)", () => {
  it.effect("keeps the name its owner's for 30 days: another account needs the TXT record until then", () =>
    Effect.gen(function* () {
      const world = yield* twoAccounts
      yield* verifiedDomain(handbook, docs)
      yield* TestClock.adjust("1 hour")
      const releasedAt = yield* nowDate
      yield* removeDomain(acme, handbook, docs)
      expect(yield* world.hostnameReleases(docs)).toStrictEqual([
        { account: acme, hostname: docs, releasedAt }
      ])

      yield* TestClock.adjust("1 day")
      const added = yield* addDomain(rival, guide, docs)
      expect(added.ownership.required).toBe(true)
      const refused = yield* verifyNow(rival, guide, docs)
      expect(refused.status).toBe("pending")
      expect(codes(refused.verification.problems)).toStrictEqual(["ownership_required"])
      expect(refused.verification.problems[0]?.message).toContain(`_petstore-challenge.${docs}`)
      expect(refused.verification.problems[0]?.message).toContain(added.ownership.value)
      expect(yield* resolveEdge(docs)).toStrictEqual(none)

      yield* TestClock.setTime(releasedAt.getTime() + 30 * day - 1)
      const stillRefused = yield* verifyNow(rival, guide, docs)
      expect(stillRefused.status).toBe("pending")
      expect(stillRefused.ownership.required).toBe(true)

      yield* TestClock.setTime(releasedAt.getTime() + 30 * day)
      const verified = yield* verifyNow(rival, guide, docs)
      expect(verified.status).toBe("verified")
      expect(verified.ownership.required).toBe(false)
      expect(verified.verification.problems).toStrictEqual([])
      expect(yield* resolveEdge(docs)).toStrictEqual(serves(guide))
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("lets the name's new owner prove it at once with the TXT record", () =>
    Effect.gen(function* () {
      yield* twoAccounts
      yield* verifiedDomain(handbook, docs)
      yield* removeDomain(acme, handbook, docs)
      const added = yield* addDomain(rival, guide, docs)
      yield* publishRecord(added)
      const verified = yield* verifyNow(rival, guide, docs)
      expect(verified.status).toBe("verified")
      expect(verified.verification.problems).toStrictEqual([])
      expect(yield* resolveEdge(docs)).toStrictEqual(serves(guide))
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("does not hold a name whose removed domain never verified", () =>
    Effect.gen(function* () {
      const world = yield* twoAccounts
      yield* addDomain(acme, handbook, docs)
      yield* removeDomain(acme, handbook, docs)
      expect(yield* world.hostnameReleases(docs)).toStrictEqual([])
      yield* world.setDns(docs, cnameToTarget)
      expect((yield* addDomain(rival, guide, docs)).ownership.required).toBe(false)
      expect((yield* verifyNow(rival, guide, docs)).status).toBe("verified")
    }).pipe(Effect.provide(fakeWorld))
  )
})

describe("a squatted name (another account added it first)", () => {
  it.effect("is no 409: the owner adds it too, proves it with the TXT record and takes it", () =>
    Effect.gen(function* () {
      const world = yield* twoAccounts
      const squatted = yield* addDomain(rival, guide, docs)
      expect(squatted.ownership.required).toBe(false)
      expect((yield* verifyNow(rival, guide, docs)).status).toBe("pending")

      const added = yield* addDomain(acme, handbook, docs)
      expect(added.status).toBe("pending")
      expect(added.ownership.required).toBe(true)
      expect(Option.getOrThrow(yield* world.storedDomain(docs, guide)).ownership.required).toBe(true)

      // The owner points the name at the platform: the CNAME alone verifies neither account's domain.
      yield* world.setDns(docs, cnameToTarget)
      for (const [account, project] of [
        [acme, handbook],
        [rival, guide]
      ] as const) {
        const checked = yield* verifyNow(account, project, docs)
        expect(checked.status).toBe("pending")
        expect(codes(checked.verification.problems)).toStrictEqual(["ownership_required"])
      }
      expect(yield* resolveEdge(docs)).toStrictEqual(none)

      yield* publishRecord(added)
      const won = yield* verifyNow(acme, handbook, docs)
      expect(won.status).toBe("verified")
      expect(won.ownership.required).toBe(true)
      expect(won.verification.problems).toStrictEqual([])
      const lost = Option.getOrThrow(yield* world.storedDomain(docs, guide))
      expect(lost.status).toBe("failed")
      expect(codes(lost.verification.problems)).toStrictEqual(["ownership_lost"])
      expect(lost.verification.nextCheckAt).toBeNull()
      expect(yield* resolveEdge(docs)).toStrictEqual(serves(handbook))

      // Verify does not bring the squatter back, not even as a contender: the record there is not
      // its own, so it stays lost to the account that proved the name.
      const retried = yield* verifyNow(rival, guide, docs)
      expect(retried.status).toBe("failed")
      expect(codes(retried.verification.problems)).toStrictEqual(["ownership_lost"])
      expect(retried.ownership.required).toBe(true)
      expect(yield* world.lookups).toContain(`txt ${retried.ownership.name}`)
      expect(Option.getOrThrow(yield* world.storedDomain(docs, handbook)).status).toBe("verified")
      expect(yield* resolveEdge(docs)).toStrictEqual(serves(handbook))
    }).pipe(Effect.provide(fakeWorld))
  )
})

describe("a lost name", () => {
  it.effect("is won back by its loser once the loser's own record replaces the winner's", () =>
    Effect.gen(function* () {
      const world = yield* twoAccounts
      yield* world.setDns(docs, cnameToTarget)
      yield* addDomain(rival, guide, docs)
      expect((yield* verifyNow(rival, guide, docs)).status).toBe("verified")
      const added = yield* addDomain(acme, handbook, docs)
      yield* publishRecord(added)
      expect((yield* verifyNow(acme, handbook, docs)).status).toBe("verified")
      const lost = yield* verifyNow(rival, guide, docs)
      expect(lost.status).toBe("failed")
      expect(codes(lost.verification.problems)).toStrictEqual(["ownership_lost"])
      expect(yield* resolveEdge(docs)).toStrictEqual(serves(handbook))

      // The name changes hands in DNS: the record there is the rival's now.
      yield* publishRecord(lost)
      const back = yield* verifyNow(rival, guide, docs)
      expect(back.status).toBe("verified")
      expect(back.verification.problems).toStrictEqual([])
      const former = Option.getOrThrow(yield* world.storedDomain(docs, handbook))
      expect(former.status).toBe("failed")
      expect(codes(former.verification.problems)).toStrictEqual(["ownership_lost"])
      expect(yield* resolveEdge(docs)).toStrictEqual(serves(guide))
    }).pipe(Effect.provide(fakeWorld))
  )
})

describe("a contested name", () => {
  it.effect("stays with its verified domain, whose owner is told to create the record", () =>
    Effect.gen(function* () {
      const world = yield* twoAccounts
      yield* verifiedDomain(handbook, docs)
      yield* addDomain(rival, guide, docs)
      expect(Option.getOrThrow(yield* world.storedDomain(docs, handbook)).ownership.required).toBe(true)
      const refused = yield* verifyNow(rival, guide, docs)
      expect(refused.status).toBe("pending")
      expect(codes(refused.verification.problems)).toStrictEqual(["ownership_required"])

      const kept = yield* verifyNow(acme, handbook, docs)
      expect(kept.status).toBe("verified")
      expect(codes(kept.verification.problems)).toStrictEqual(["ownership_required"])
      expect(yield* resolveEdge(docs)).toStrictEqual(serves(handbook))
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("goes to the contender that proves ownership, at the worker's check too", () =>
    Effect.gen(function* () {
      const world = yield* twoAccounts
      yield* verifiedDomain(handbook, docs)
      const contender = yield* addDomain(rival, guide, docs)
      yield* publishRecord(contender)
      // One round: the contender's check, and the holder's certificate work, due at once too.
      const round = yield* checkDueCustomDomains(options)
      expect(round.claimed).toBe(2)
      const won = Option.getOrThrow(yield* world.storedDomain(docs, guide))
      expect(won.status).toBe("verified")
      const lost = Option.getOrThrow(yield* world.storedDomain(docs, handbook))
      expect(lost.status).toBe("failed")
      expect(codes(lost.verification.problems)).toStrictEqual(["ownership_lost"])
      // The loser's certificate work, leased before it lost, is not stored over its loss.
      expect(lost.issuance).toBeNull()
      expect(lost.certificate.status).toBe("none")
      expect(round).toStrictEqual({ claimed: 2, completed: 1, abandoned: 1 })
      expect(yield* resolveEdge(docs)).toStrictEqual(serves(guide))
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("is served for the verified domain only, and each account lists only its own", () =>
    Effect.gen(function* () {
      yield* twoAccounts
      yield* verifiedDomain(handbook, docs)
      yield* addDomain(rival, guide, docs)
      expect(yield* resolveEdge(docs)).toStrictEqual(serves(handbook))
      expect(yield* resolveEdge("DOCS.example.com:443")).toStrictEqual(serves(handbook))
      const listed = (account: typeof acme, project: ProjectId) =>
        Effect.map(listDomains(account, project), ({ domains }) =>
          domains.map((domain) => [domain.projectId, domain.account, domain.status])
        )
      expect(yield* listed(acme, handbook)).toStrictEqual([[handbook, acme, "verified"]])
      expect(yield* listed(rival, guide)).toStrictEqual([[guide, rival, "pending"]])
    }).pipe(Effect.provide(fakeWorld))
  )
})

describe("removeDomain of a contested name", () => {
  const certificate = {
    certificatePem: "CERTIFICATE of docs.example.com",
    chainPem: "CHAIN",
    privateKeyPem: Redacted.make("KEY"),
    notAfter: new Date("2027-06-01T00:00:00.000Z")
  }

  it.effect(
    "leaves the hostname's certificate and release alone when the removed domain was not verified",
    () =>
      Effect.gen(function* () {
        const world = yield* twoAccounts
        yield* verifiedDomain(handbook, docs)
        yield* world.saveCertificate(docs, certificate)
        yield* addDomain(rival, guide, docs)
        yield* removeDomain(rival, guide, docs)
        expect(yield* world.storedCertificate(docs)).toStrictEqual(Option.some(certificate))
        expect(yield* world.hostnameReleases(docs)).toStrictEqual([])
        expect(yield* world.storedDomain(docs, guide)).toStrictEqual(Option.none())
        expect(yield* resolveEdge(docs)).toStrictEqual(serves(handbook))

        const removedAt = yield* nowDate
        yield* removeDomain(acme, handbook, docs)
        expect(yield* world.storedCertificate(docs)).toStrictEqual(Option.none())
        expect(yield* world.hostnameReleases(docs)).toStrictEqual([
          { account: acme, hostname: docs, releasedAt: removedAt }
        ])
        expect(yield* resolveEdge(docs)).toStrictEqual(none)
      }).pipe(Effect.provide(fakeWorld))
  )
})

describe("a wildcard record", () => {
  it.effect("is reported when a random name under the parent reaches the platform, and verifies anyway", () =>
    Effect.gen(function* () {
      const world = yield* twoAccounts
      yield* world.setDns("*.example.com", cnameToTarget)
      yield* addDomain(acme, handbook, docs)
      const checked = yield* verifyNow(acme, handbook, docs)
      expect(checked.status).toBe("verified")
      expect(codes(checked.verification.problems)).toStrictEqual(["wildcard_record"])
      expect(checked.verification.problems[0]?.found).toStrictEqual(["*.example.com"])
      expect(checked.verification.problems[0]?.message).toContain("claim example.com")
      const probes = (yield* world.lookups).filter(
        (lookup) => lookup.startsWith("cname ") && lookup !== `cname ${docs}`
      )
      expect(probes).toHaveLength(1)
      expect(probes[0]).toMatch(/^cname [a-z0-9]{20}\.example\.com$/)
      expect(yield* resolveEdge(docs)).toStrictEqual(serves(handbook))
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("probes a fresh label of 20 letters and digits at each check", () =>
    Effect.gen(function* () {
      const world = yield* twoAccounts
      yield* verifiedDomain(handbook, docs)
      for (let click = 0; click < 40; click++) yield* verifyNow(acme, handbook, docs)
      const probes = (yield* world.lookups).filter(
        (lookup) => lookup.startsWith("cname ") && lookup !== `cname ${docs}`
      )
      expect(probes).toHaveLength(41)
      for (const probe of probes) expect(probe).toMatch(/^cname [a-z0-9]{20}\.example\.com$/)
      expect(new Set(probes).size).toBe(41)
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("is not reported when only the hostname itself reaches the platform", () =>
    Effect.gen(function* () {
      const world = yield* twoAccounts
      yield* world.setDns("*.example.com", { cname: records("elsewhere.example.net") })
      const checked = yield* verifiedDomain(handbook, docs)
      expect(checked.verification.problems).toStrictEqual([])
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("is not looked for above an apex (under a public suffix)", () =>
    Effect.gen(function* () {
      const world = yield* twoAccounts
      const checked = yield* verifiedDomain(handbook, "example.com")
      expect(checked.verification.problems).toStrictEqual([])
      expect((yield* world.lookups).filter((lookup) => lookup.startsWith("cname "))).toStrictEqual([
        "cname example.com"
      ])
    }).pipe(Effect.provide(fakeWorld))
  )
})
