import { describe, expect, it } from "@effect/vitest"
import { AccountName } from "@petstore/kernel"
import { Clock, Duration, Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import {
  addDomain,
  CaaRecord,
  type CustomDomain,
  checkDueCustomDomains,
  createProject,
  type DnsAnswer,
  getDomain,
  NotReverifiable,
  ProjectId,
  recordProjectDeploy,
  reverifyDomain,
  verifyNow
} from "../src/index.js"
import {
  caIdentifier,
  certificateLifetime,
  cnameToTarget,
  FakeWorld,
  fakeWorld,
  nxdomain,
  records
} from "./support/CustomDomainWorld.js"

const t0 = Date.parse("2027-03-01T12:00:00.000Z")
const acme = AccountName.make("acme")
const handbook = ProjectId.make("handbook")
const hostname = "docs.example.com"
const options = { holder: "worker-1", batchSize: 10, concurrency: 4, lease: "1 minute" } as const

/** A deployed pro project with `hostname` verified at t0: its certificate is pending, worked on at once. */
const verified = Effect.gen(function* () {
  const world = yield* FakeWorld
  yield* TestClock.setTime(t0)
  yield* createProject(acme, handbook, "pro")
  yield* recordProjectDeploy(acme, handbook, "succeeded")
  yield* world.setDns(hostname, cnameToTarget)
  yield* addDomain(acme, handbook, hostname)
  const domain = yield* verifyNow(acme, handbook, hostname)
  expect(domain.status).toBe("verified")
  expect(domain.certificate.status).toBe("pending")
  return domain
})

const current = Effect.suspend(() => getDomain(acme, handbook, hostname))

/** Worker rounds every `step` until `until` has passed on the test clock. */
const runWorkerFor = (until: Duration.Input, step: Duration.Input = "10 seconds") =>
  Effect.gen(function* () {
    const end = (yield* Clock.currentTimeMillis) + Duration.toMillis(until)
    while ((yield* Clock.currentTimeMillis) < end) {
      yield* checkDueCustomDomains(options)
      yield* TestClock.adjust(step)
    }
    yield* checkDueCustomDomains(options)
  })

const blockingCaa: DnsAnswer<CaaRecord> = {
  _tag: "Records",
  records: [new CaaRecord({ critical: false, tag: "issue", value: "digicert.com" })]
}
const noCaa: DnsAnswer<CaaRecord> = { _tag: "NoRecords", reason: "nodata" }

const codes = (domain: CustomDomain) => domain.certificate.problems.map((problem) => problem.code)

describe("certificate issuance by the worker", () => {
  it.effect("orders at once after verification, polls, stores the certificate and schedules renewal", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* verified
      yield* checkDueCustomDomains(options)
      expect(yield* world.ordersOpened).toStrictEqual([hostname])
      expect((yield* current).certificate.status).toBe("pending")
      yield* runWorkerFor("10 seconds", "1 second")
      const domain = yield* current
      expect(domain.certificate.status).toBe("issued")
      expect(domain.certificate.problems).toStrictEqual([])
      const expiresAt = domain.certificate.expiresAt?.getTime() ?? 0
      expect(domain.certificate.issuedAt?.getTime()).toBeGreaterThanOrEqual(t0)
      expect(expiresAt).toBeGreaterThan(t0 + Duration.toMillis(certificateLifetime) - 60_000)
      expect(domain.issuance?.nextAttemptAt?.getTime()).toBe(expiresAt - Duration.toMillis(Duration.days(30)))
      const stored = Option.getOrThrow(yield* world.storedCertificate(hostname))
      expect(stored.certificatePem).toBe(`CERTIFICATE of ${hostname}`)
      expect(Redacted.value(stored.privateKeyPem)).toBe(`KEY of ${hostname}`)
      expect(yield* world.ordersOpened).toStrictEqual([hostname])
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("a domain verified by the worker gets its order in a job of its own, right after", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* TestClock.setTime(t0)
      yield* createProject(acme, handbook, "pro")
      yield* recordProjectDeploy(acme, handbook, "succeeded")
      yield* world.setDns(hostname, cnameToTarget)
      yield* addDomain(acme, handbook, hostname)
      const verifying = yield* checkDueCustomDomains(options)
      expect(verifying).toStrictEqual({ claimed: 1, completed: 1, abandoned: 0 })
      const domain = yield* current
      expect(domain.status).toBe("verified")
      expect(domain.issuance?.order).toBeNull()
      expect(yield* world.ordersOpened).toStrictEqual([])
      expect((yield* world.lookups).filter((lookup) => lookup.startsWith("caa "))).toStrictEqual([])
      // Due at once: the next round, with no time passing, opens the order after its own checks.
      const ordering = yield* checkDueCustomDomains(options)
      expect(ordering).toStrictEqual({ claimed: 1, completed: 1, abandoned: 0 })
      expect((yield* current).issuance?.order).not.toBeNull()
      expect(yield* world.ordersOpened).toStrictEqual([hostname])
      const lookups = yield* world.lookups
      expect(lookups).toContain(`caa ${hostname}`)
      expect(lookups).toContain("caa example.com")
      // Asked again before the order: the owner may have changed DNS since.
      expect(lookups.filter((lookup) => lookup === `cname ${hostname}`)).toHaveLength(2)
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("a CA that issues at once: issued in the job that opened the order", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* world.setCa("issuesAtOnce")
      yield* verified
      yield* checkDueCustomDomains(options)
      const domain = yield* current
      expect(domain.certificate.status).toBe("issued")
      expect(domain.certificate.issuedAt).toStrictEqual(new Date(t0))
      expect(Option.isSome(yield* world.storedCertificate(hostname))).toBe(true)
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect(
    "CAA forbidding the CA: no order, delayed at 30 minutes naming the record; fixed + Re-verify: issued",
    () =>
      Effect.gen(function* () {
        const world = yield* FakeWorld
        yield* world.setDns("example.com", { caa: blockingCaa })
        yield* verified
        yield* runWorkerFor("29 minutes")
        const early = yield* current
        expect(early.certificate.status).toBe("pending")
        expect(early.certificate.problems).toStrictEqual([])
        yield* runWorkerFor("1 minute")
        const late = yield* current
        expect(late.certificate.status).toBe("delayed")
        expect(codes(late)).toStrictEqual(["caa_blocks_issuer"])
        expect(late.certificate.problems[0]?.found).toStrictEqual(['0 issue "digicert.com"'])
        expect(late.certificate.problems[0]?.message).toContain(caIdentifier)
        expect(yield* world.ordersOpened).toStrictEqual([])

        yield* world.setDns("example.com", { caa: noCaa })
        const restarted = yield* reverifyDomain(acme, handbook, hostname)
        expect(restarted.certificate.status).toBe("pending")
        expect(restarted.certificate.problems).toStrictEqual([])
        yield* runWorkerFor("10 seconds", "1 second")
        expect((yield* current).certificate.status).toBe("issued")
        expect(yield* world.ordersOpened).toStrictEqual([hostname])
      }).pipe(Effect.provide(fakeWorld))
  )

  it.effect(
    "a CNAME removed after verification: delayed with domain_no_longer_verifies and what was found",
    () =>
      Effect.gen(function* () {
        const world = yield* FakeWorld
        yield* world.setCa("stalls")
        yield* verified
        yield* checkDueCustomDomains(options)
        yield* world.setDns(hostname, { cname: nxdomain, addresses: records("198.51.100.7") })
        yield* runWorkerFor("30 minutes")
        const domain = yield* current
        expect(domain.status).toBe("verified")
        expect(domain.certificate.status).toBe("delayed")
        expect(codes(domain)).toStrictEqual(["domain_no_longer_verifies"])
        expect(domain.certificate.problems[0]?.found).toStrictEqual(["A 198.51.100.7"])
      }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("a delayed certificate keeps being worked on: fixing DNS alone ends in issued", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* world.setDns("example.com", { caa: blockingCaa })
      yield* verified
      yield* runWorkerFor("31 minutes")
      expect((yield* current).certificate.status).toBe("delayed")
      yield* world.setDns("example.com", { caa: noCaa })
      yield* runWorkerFor("20 minutes")
      expect((yield* current).certificate.status).toBe("issued")
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("the CA refusing the order: failed with its reason, not retried until Re-verify", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* world.setCa("refuses")
      yield* verified
      yield* runWorkerFor("10 seconds", "1 second")
      const failed = yield* current
      expect(failed.certificate.status).toBe("failed")
      expect(codes(failed)).toStrictEqual(["issuance_failed"])
      expect(failed.certificate.problems[0]?.message).toContain("the CA could not reach the challenge")
      expect(failed.issuance?.nextAttemptAt).toBeNull()
      yield* runWorkerFor("2 hours", "5 minutes")
      expect(yield* world.ordersOpened).toStrictEqual([hostname])

      yield* world.setCa("issues")
      expect((yield* reverifyDomain(acme, handbook, hostname)).certificate.status).toBe("pending")
      yield* runWorkerFor("10 seconds", "1 second")
      expect((yield* current).certificate.status).toBe("issued")
      expect(yield* world.ordersOpened).toStrictEqual([hostname, hostname])
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect(
    "the CA unreachable: retried with backoff; delayed after 30 minutes without internal detail",
    () =>
      Effect.gen(function* () {
        const world = yield* FakeWorld
        yield* world.setCa("unreachable")
        yield* verified
        yield* checkDueCustomDomains(options)
        const first = yield* current
        expect(first.certificate.status).toBe("pending")
        expect(first.issuance?.nextAttemptAt?.getTime()).toBe(t0 + 60_000)
        yield* runWorkerFor("31 minutes")
        const late = yield* current
        expect(late.certificate.status).toBe("delayed")
        expect(codes(late)).toStrictEqual(["issuance_failed"])
        expect(late.certificate.problems[0]?.message).not.toContain("ECONNREFUSED")
        yield* world.setCa("issues")
        yield* runWorkerFor("30 minutes")
        expect((yield* current).certificate.status).toBe("issued")
      }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("renews 30 days before expiry, serving the old certificate meanwhile", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* verified
      yield* runWorkerFor("10 seconds", "1 second")
      const first = yield* current
      expect(first.certificate.status).toBe("issued")
      const renewalAt = first.issuance?.nextAttemptAt?.getTime() ?? 0
      yield* TestClock.setTime(renewalAt - 1000)
      yield* checkDueCustomDomains(options)
      expect(yield* world.ordersOpened).toStrictEqual([hostname])
      yield* TestClock.setTime(renewalAt)
      yield* checkDueCustomDomains(options)
      expect(yield* world.ordersOpened).toStrictEqual([hostname, hostname])
      expect((yield* current).certificate.status).toBe("issued")
      yield* runWorkerFor("10 seconds", "1 second")
      const renewed = yield* current
      expect(renewed.certificate.status).toBe("issued")
      expect(renewed.certificate.expiresAt?.getTime()).toBeGreaterThan(
        first.certificate.expiresAt?.getTime() ?? 0
      )
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect(
    "a refused renewal keeps the certificate issued, shows the problem, and retries a day later",
    () =>
      Effect.gen(function* () {
        const world = yield* FakeWorld
        yield* verified
        yield* runWorkerFor("10 seconds", "1 second")
        const first = yield* current
        yield* world.setCa("refuses")
        yield* TestClock.setTime(first.issuance?.nextAttemptAt?.getTime() ?? 0)
        yield* runWorkerFor("10 seconds", "1 second")
        const refused = yield* current
        expect(refused.certificate.status).toBe("issued")
        expect(refused.certificate.expiresAt).toStrictEqual(first.certificate.expiresAt)
        expect(codes(refused)).toStrictEqual(["issuance_failed"])
        const retryAt = refused.issuance?.nextAttemptAt?.getTime() ?? 0
        expect(retryAt - (yield* Clock.currentTimeMillis)).toBeGreaterThan(
          Duration.toMillis(Duration.hours(23))
        )
      }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("Re-verify refuses a domain whose certificate is pending or issued", () =>
    Effect.gen(function* () {
      yield* verified
      const pending = yield* Effect.flip(reverifyDomain(acme, handbook, hostname))
      expect(pending).toBeInstanceOf(NotReverifiable)
      yield* runWorkerFor("10 seconds", "1 second")
      const issued = yield* Effect.flip(reverifyDomain(acme, handbook, hostname))
      expect(issued).toBeInstanceOf(NotReverifiable)
    }).pipe(Effect.provide(fakeWorld))
  )
})
