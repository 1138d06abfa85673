import { describe, expect, it } from "@effect/vitest"
import { CertificateDelay } from "@petstore/certificates"
import { CaaRecord, type CustomDomain, type DnsAnswer, Issuance, NotReverifiable } from "@petstore/domains"
import { AccountName } from "@petstore/kernel"
import { createProject, ProjectId, recordProjectDeploy } from "@petstore/projects"
import { Clock, Duration, Effect, Layer, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { addDomain, checkDueCustomDomains, getDomain, reverifyDomain, verifyNow } from "../src/index.js"
import {
  caIdentifier,
  certificateLifetime,
  cnameToTarget,
  FakeWorld,
  fakeWorld,
  nxdomain,
  records,
  servfail
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
    "CAA forbidding the CA: shown in the round that ran the checks, no order; delayed at 30 minutes; fixed + Re-verify: issued",
    () =>
      Effect.gen(function* () {
        const world = yield* FakeWorld
        yield* world.setDns("example.com", { caa: blockingCaa })
        yield* verified
        yield* checkDueCustomDomains(options)
        const found = yield* current
        expect(found.certificate.status).toBe("pending")
        expect(codes(found)).toStrictEqual(["caa_blocks_issuer"])
        expect(found.certificate.problems[0]?.found).toStrictEqual(['0 issue "digicert.com"'])
        expect(found.certificate.problems[0]?.message).toContain(caIdentifier)
        yield* runWorkerFor("29 minutes")
        const early = yield* current
        expect(early.certificate.status).toBe("pending")
        expect(early.certificate.problems).toStrictEqual(found.certificate.problems)
        yield* runWorkerFor("1 minute")
        const late = yield* current
        expect(late.certificate.status).toBe("delayed")
        expect(late.certificate.problems).toStrictEqual(found.certificate.problems)
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

  it.effect("the problems clear in the first round whose checks find nothing, and the order is opened", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* world.setCa("stalls")
      yield* world.setDns("example.com", { caa: blockingCaa })
      yield* verified
      yield* checkDueCustomDomains(options)
      const blocked = yield* current
      expect(codes(blocked)).toStrictEqual(["caa_blocks_issuer"])
      const retryAt = blocked.issuance?.nextAttemptAt?.getTime() ?? 0
      expect(retryAt).toBeGreaterThan(t0)

      yield* world.setDns("example.com", { caa: noCaa })
      // Nothing is looked at again before the retry: the problems stay until a check says otherwise.
      yield* TestClock.setTime(retryAt - 1)
      yield* checkDueCustomDomains(options)
      expect(codes(yield* current)).toStrictEqual(["caa_blocks_issuer"])
      yield* TestClock.setTime(retryAt)
      yield* checkDueCustomDomains(options)
      const cleared = yield* current
      expect(cleared.certificate.status).toBe("pending")
      expect(cleared.certificate.problems).toStrictEqual([])
      expect(cleared.issuance?.order).not.toBeNull()
      expect(yield* world.ordersOpened).toStrictEqual([hostname])
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect(
    "a CNAME removed before the order: domain_no_longer_verifies, with what was found, in the round that ran the checks",
    () =>
      Effect.gen(function* () {
        const world = yield* FakeWorld
        yield* verified
        yield* world.setDns(hostname, { cname: nxdomain, addresses: records("198.51.100.7") })
        yield* checkDueCustomDomains(options)
        const domain = yield* current
        expect(domain.status).toBe("verified")
        expect(domain.certificate.status).toBe("pending")
        expect(codes(domain)).toStrictEqual(["domain_no_longer_verifies"])
        expect(domain.certificate.problems[0]?.found).toStrictEqual(["A 198.51.100.7"])
        expect(yield* world.ordersOpened).toStrictEqual([])
      }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("a lookup that got no answer is shown as it is (dns_error), never as no longer verifying", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* verified
      yield* world.setDns(hostname, { ...cnameToTarget, cname: servfail })
      yield* checkDueCustomDomains(options)
      const domain = yield* current
      expect(domain.certificate.status).toBe("pending")
      expect(codes(domain)).toStrictEqual(["dns_error"])
      expect(yield* world.ordersOpened).toStrictEqual([])
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
        expect(first.certificate.problems).toStrictEqual([])
        expect(first.issuance?.nextAttemptAt?.getTime()).toBe(t0 + 60_000)
        // Not the owner's to fix: nothing is shown before the delay.
        yield* runWorkerFor("29 minutes")
        const early = yield* current
        expect(early.certificate.status).toBe("pending")
        expect(early.certificate.problems).toStrictEqual([])
        expect((yield* world.ordersOpened).length).toBe(0)
        yield* runWorkerFor("2 minutes")
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
})

describe("a certificate issued for a domain that changed meanwhile", () => {
  it.effect("is not kept, and the worker's result not stored: another write came first", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* verified
      // While the worker checks the domain before its order, another write changes it (the owner
      // clicks Verify, another account takes the name): the issued certificate is not for it.
      yield* world.duringLookup(hostname, world.rewriteDirectly(hostname))
      const round = yield* checkDueCustomDomains(options)
      expect(round).toMatchObject({ claimed: 1, completed: 0, abandoned: 1 })
      expect(yield* world.storedCertificate(hostname)).toEqual(Option.none())
      expect((yield* current).certificate.status).toBe("pending")

      // With nothing in the way, the next round keeps it.
      yield* world.duringLookup(hostname, Effect.void)
      yield* runWorkerFor("10 seconds", "1 second")
      expect(Option.isSome(yield* world.storedCertificate(hostname))).toBe(true)
      expect((yield* current).certificate.status).toBe("issued")
    }).pipe(Effect.provide(fakeWorld))
  )
})

describe("a delay set by the application (CertificateDelay)", () => {
  const fiveMinutes = Layer.succeed(CertificateDelay, Duration.minutes(5))

  it.effect("CAA forbidding the CA: shown at once, delayed at 5 minutes, not before", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* world.setDns("example.com", { caa: blockingCaa })
      yield* verified
      yield* checkDueCustomDomains(options)
      expect(codes(yield* current)).toStrictEqual(["caa_blocks_issuer"])
      yield* TestClock.setTime(t0 + Duration.toMillis(Duration.minutes(5)) - 1)
      yield* checkDueCustomDomains(options)
      expect((yield* current).certificate.status).toBe("pending")
      yield* TestClock.setTime(t0 + Duration.toMillis(Duration.minutes(5)))
      yield* checkDueCustomDomains(options)
      const late = yield* current
      expect(late.certificate.status).toBe("delayed")
      expect(codes(late)).toStrictEqual(["caa_blocks_issuer"])
    }).pipe(Effect.provide(Layer.merge(fakeWorld, fiveMinutes)))
  )

  it.effect("the CA unreachable: hidden until 5 minutes, then delayed with issuance_failed", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* world.setCa("unreachable")
      yield* verified
      yield* runWorkerFor("4 minutes")
      const early = yield* current
      expect(early.certificate.status).toBe("pending")
      expect(early.certificate.problems).toStrictEqual([])
      // However long the backoff, the domain is looked at again when the delay falls due.
      expect(early.issuance?.nextAttemptAt?.getTime()).toBeLessThanOrEqual(
        t0 + Duration.toMillis(Duration.minutes(5))
      )
      yield* TestClock.setTime(t0 + Duration.toMillis(Duration.minutes(5)))
      yield* checkDueCustomDomains(options)
      const late = yield* current
      expect(late.certificate.status).toBe("delayed")
      expect(codes(late)).toStrictEqual(["issuance_failed"])
    }).pipe(Effect.provide(Layer.merge(fakeWorld, fiveMinutes)))
  )

  it.effect("a delay of 2 hours: still pending at 31 minutes, delayed at 2 hours", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* world.setDns("example.com", { caa: blockingCaa })
      yield* verified
      yield* runWorkerFor("31 minutes", "1 minute")
      expect((yield* current).certificate.status).toBe("pending")
      yield* TestClock.setTime(t0 + Duration.toMillis(Duration.hours(2)))
      yield* checkDueCustomDomains(options)
      expect((yield* current).certificate.status).toBe("delayed")
    }).pipe(Effect.provide(Layer.merge(fakeWorld, Layer.succeed(CertificateDelay, Duration.hours(2)))))
  )
})

describe("Re-verify", () => {
  /** The reason Re-verify gives for refusing, the domain stored unchanged by it. */
  const refused = Effect.gen(function* () {
    const before = yield* current
    const error = yield* Effect.flip(reverifyDomain(acme, handbook, hostname))
    expect(error).toBeInstanceOf(NotReverifiable)
    expect(yield* current).toStrictEqual(before)
    return error instanceof NotReverifiable ? error.reason : ""
  })

  it.effect(
    "accepts a certificate pending with no problem found, before and after its order opens: asked for afresh, due at once",
    () =>
      Effect.gen(function* () {
        const world = yield* FakeWorld
        yield* world.setCa("stalls")
        yield* verified
        const now = yield* Clock.currentTimeMillis
        const before = yield* reverifyDomain(acme, handbook, hostname)
        expect(before.certificate).toMatchObject({ status: "pending", problems: [] })
        expect(before.issuance).toStrictEqual(
          new Issuance({ requestedAt: new Date(now), order: null, nextAttemptAt: new Date(now), attempts: 0 })
        )
        expect(yield* current).toStrictEqual(before)
        yield* checkDueCustomDomains(options)
        const opened = yield* current
        expect(opened.issuance?.order).not.toBeNull()
        yield* TestClock.adjust("1 second")
        // An open order the CA sits on is dropped for a fresh one: what Re-verify is for.
        const after = yield* reverifyDomain(acme, handbook, hostname)
        expect(after.certificate.status).toBe("pending")
        expect(after.issuance?.order).toBeNull()
        expect(after.issuance?.nextAttemptAt).toStrictEqual(new Date(now + 1000))
        expect(yield* current).toStrictEqual(after)
      }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("refuses an issued certificate, and one whose refused renewal is shown", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* verified
      yield* runWorkerFor("10 seconds", "1 second")
      expect(yield* refused).toContain("its certificate issued")
      yield* world.setCa("refuses")
      yield* TestClock.setTime((yield* current).issuance?.nextAttemptAt?.getTime() ?? 0)
      yield* runWorkerFor("10 seconds", "1 second")
      expect(codes(yield* current)).toStrictEqual(["issuance_failed"])
      expect(yield* refused).toContain("its certificate issued")
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("refuses a domain that is not verified", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(t0)
      yield* createProject(acme, handbook, "pro")
      yield* recordProjectDeploy(acme, handbook, "succeeded")
      yield* addDomain(acme, handbook, hostname)
      expect(yield* refused).toContain("this one is pending, its certificate none")
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect(
    "accepts a certificate pending with a problem: a fresh issuance due at once, no backoff waited for",
    () =>
      Effect.gen(function* () {
        const world = yield* FakeWorld
        yield* world.setDns("example.com", { caa: blockingCaa })
        yield* verified
        yield* runWorkerFor("3 minutes")
        const blocked = yield* current
        expect(blocked.certificate.status).toBe("pending")
        expect(codes(blocked)).toStrictEqual(["caa_blocks_issuer"])
        const backoffUntil = blocked.issuance?.nextAttemptAt?.getTime() ?? 0
        const now = yield* Clock.currentTimeMillis
        expect(backoffUntil).toBeGreaterThan(now)

        yield* world.setDns("example.com", { caa: noCaa })
        const restarted = yield* reverifyDomain(acme, handbook, hostname)
        expect(restarted.status).toBe("verified")
        expect(restarted.certificate.status).toBe("pending")
        expect(restarted.certificate.problems).toStrictEqual([])
        expect(restarted.issuance).toStrictEqual(
          new Issuance({ requestedAt: new Date(now), order: null, nextAttemptAt: new Date(now), attempts: 0 })
        )
        expect(yield* current).toStrictEqual(restarted)
        // The very next round, with no time passing, opens the order.
        yield* checkDueCustomDomains(options)
        expect(yield* world.ordersOpened).toStrictEqual([hostname])
        yield* TestClock.adjust("2 seconds")
        yield* checkDueCustomDomains(options)
        expect((yield* current).certificate.status).toBe("issued")
        expect(yield* Clock.currentTimeMillis).toBeLessThan(backoffUntil)
      }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("accepts a pending certificate with a problem whose domain no longer verifies: no issuance", () =>
    Effect.gen(function* () {
      const world = yield* FakeWorld
      yield* verified
      yield* world.setDns(hostname, { cname: nxdomain, addresses: records("198.51.100.7") })
      yield* checkDueCustomDomains(options)
      expect(codes(yield* current)).toStrictEqual(["domain_no_longer_verifies"])
      const rechecked = yield* reverifyDomain(acme, handbook, hostname)
      expect(rechecked.status).toBe("pending")
      expect(rechecked.verification.problems.map((problem) => problem.code)).toStrictEqual([
        "conflicting_record"
      ])
      yield* checkDueCustomDomains(options)
      expect(yield* world.ordersOpened).toStrictEqual([])
    }).pipe(Effect.provide(fakeWorld))
  )
})
