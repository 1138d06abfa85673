import { describe, expect, it } from "@effect/vitest"
import {
  Certificate,
  type CertificateStatus,
  CustomDomain,
  Issuance,
  OrderRef,
  Problem,
  requestCertificate
} from "@petstore/domains"
import { addedDomain } from "@petstore/domains/testing"
import { Clock, Duration, Effect } from "effect"
import { TestClock } from "effect/testing"
import {
  attemptBlocked,
  backoff,
  caUnreachable,
  certificateIssued,
  checksFound,
  firstPollAfter,
  firstRetryAfter,
  isDelayDue,
  isIssuanceDue,
  longestPollInterval,
  longestRetryInterval,
  orderRefused,
  orderStarted,
  orderWaiting
} from "../src/index.js"

const second = 1000
const minute = 60 * second
const day = 24 * 60 * minute
const t0 = new Date("2027-03-01T12:00:00.000Z")
const at = (offset: number) => new Date(t0.getTime() + offset)
const order = OrderRef.make("https://ca.test/order/1")
const caaProblem = new Problem({
  code: "caa_blocks_issuer",
  message: "CAA blocks",
  found: ['0 issue "x.test"']
})

const added = addedDomain("docs.example.com", "handbook", "cname.test", t0)
/** Verified at t0, its certificate asked for then. */
const requested = requestCertificate(new CustomDomain({ ...added, status: "verified" }), t0)
const withStatus = (status: CertificateStatus) =>
  new CustomDomain({
    ...requested,
    certificate: new Certificate({ ...requested.certificate, status })
  })

describe("backoff", () => {
  it.each([
    [0, 2 * second],
    [1, 4 * second],
    [5, 64 * second],
    [8, 5 * minute],
    [1000, 5 * minute]
  ])("polling, attempt %d: %d ms", (attempts, millis) => {
    expect(Duration.toMillis(backoff(attempts, firstPollAfter, longestPollInterval))).toBe(millis)
  })

  it.each([
    [0, 30 * second],
    [1, 60 * second],
    [4, 8 * minute],
    [5, 15 * minute],
    [60, 15 * minute]
  ])("retrying, attempt %d: %d ms", (attempts, millis) => {
    expect(Duration.toMillis(backoff(attempts, firstRetryAfter, longestRetryInterval))).toBe(millis)
  })
})

describe("requestCertificate", () => {
  it("makes the certificate pending with no problems and the work due at once", () => {
    expect(requested.certificate.status).toBe("pending")
    expect(requested.issuance).toStrictEqual(
      new Issuance({ requestedAt: t0, order: null, nextAttemptAt: t0, attempts: 0 })
    )
    expect(isIssuanceDue(requested, t0)).toBe(true)
    expect(isIssuanceDue(requested, at(-1))).toBe(false)
  })

  it("is never due for a domain that is not verified", () => {
    expect(isIssuanceDue(new CustomDomain({ ...requested, status: "pending" }), at(day))).toBe(false)
  })
})

describe("isDelayDue", () => {
  it.each([
    ["pending", 0, false],
    ["pending", 30 * minute - 1, false],
    ["pending", 30 * minute, true],
    ["pending", 2 * day, true],
    ["delayed", 30 * minute, true],
    ["issued", 30 * minute, false],
    ["failed", 30 * minute, false]
  ] as const)("%s, %d ms after the request: %s", (status, offset, due) => {
    expect(isDelayDue(withStatus(status), at(offset))).toBe(due)
  })

  it.each([
    ["pending", 5 * minute - 1, false],
    ["pending", 5 * minute, true],
    ["delayed", 5 * minute, true],
    ["issued", 5 * minute, false],
    ["failed", 5 * minute, false]
  ] as const)("with a delay of 5 minutes, %s, %d ms after the request: %s", (status, offset, due) => {
    expect(isDelayDue(withStatus(status), at(offset), Duration.minutes(5))).toBe(due)
  })

  it("with a delay of 2 hours: not due at 30 minutes, due at 2 hours", () => {
    expect(isDelayDue(requested, at(30 * minute), Duration.hours(2))).toBe(false)
    expect(isDelayDue(requested, at(2 * 60 * minute - 1), Duration.hours(2))).toBe(false)
    expect(isDelayDue(requested, at(2 * 60 * minute), Duration.hours(2))).toBe(true)
  })

  it.effect("becomes due exactly 30 minutes after the request on the clock, not before", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(t0.getTime())
      const domain = requestCertificate(requested, new Date(yield* Clock.currentTimeMillis))
      const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))
      yield* TestClock.adjust("29 minutes")
      expect(isDelayDue(domain, yield* now)).toBe(false)
      yield* TestClock.adjust("59999 millis")
      expect(isDelayDue(domain, yield* now)).toBe(false)
      yield* TestClock.adjust("1 millis")
      expect(isDelayDue(domain, yield* now)).toBe(true)
    })
  )
})

describe("what the checks before an order find", () => {
  const noLongerVerifies = new Problem({
    code: "domain_no_longer_verifies",
    message: "docs.example.com no longer verifies",
    found: ["A 198.51.100.7"]
  })

  it("checksFound on a pending certificate: exactly the findings, shown at once, the schedule untouched", () => {
    const found = checksFound(requested, [caaProblem, noLongerVerifies])
    expect(found.certificate.status).toBe("pending")
    expect(found.certificate.problems).toStrictEqual([caaProblem, noLongerVerifies])
    expect(found.issuance).toStrictEqual(requested.issuance)
    expect(found.status).toBe("verified")
  })

  it("checksFound with nothing found clears what an earlier round showed", () => {
    const cleared = checksFound(checksFound(requested, [caaProblem]), [])
    expect(cleared.certificate.status).toBe("pending")
    expect(cleared.certificate.problems).toStrictEqual([])
  })

  it("checksFound on a delayed certificate: the causes found now replace the earlier ones", () => {
    const late = orderWaiting(orderStarted(requested, order, t0), [caaProblem], at(30 * minute))
    expect(late.certificate.status).toBe("delayed")
    expect(checksFound(late, [noLongerVerifies]).certificate.problems).toStrictEqual([noLongerVerifies])
    expect(checksFound(late, []).certificate).toStrictEqual(
      new Certificate({ ...late.certificate, problems: [] })
    )
  })

  it.each(["issued", "failed"] as const)("checksFound leaves a %s certificate as it is", (status) => {
    const domain = withStatus(status)
    expect(checksFound(domain, [caaProblem]).certificate).toStrictEqual(domain.certificate)
  })

  it("blocked by the checks before the delay: still pending, the findings kept, retried with backoff", () => {
    const once = attemptBlocked(checksFound(requested, [caaProblem]), [caaProblem], at(second))
    expect(once.certificate.status).toBe("pending")
    expect(once.certificate.problems).toStrictEqual([caaProblem])
    expect(once.issuance?.nextAttemptAt).toStrictEqual(at(second + 60 * second))
  })

  it("the CA unreachable before the delay: pending with nothing shown (the service's to retry)", () => {
    const blocked = attemptBlocked(checksFound(requested, []), [caUnreachable], at(29 * minute))
    expect(blocked.certificate.status).toBe("pending")
    expect(blocked.certificate.problems).toStrictEqual([])
  })

  it("the CA unreachable once the delay is due: delayed with issuance_failed", () => {
    const blocked = attemptBlocked(checksFound(requested, []), [caUnreachable], at(30 * minute))
    expect(blocked.certificate.status).toBe("delayed")
    expect(blocked.certificate.problems).toStrictEqual([caUnreachable])
  })
})

describe("a delay other than 30 minutes", () => {
  const fiveMinutes = Duration.minutes(5)

  it("attemptBlocked: pending before it, delayed with the causes once it has passed", () => {
    const early = attemptBlocked(requested, [caUnreachable], at(5 * minute - 1), fiveMinutes)
    expect(early.certificate.status).toBe("pending")
    expect(early.certificate.problems).toStrictEqual([])
    const late = attemptBlocked(requested, [caUnreachable], at(5 * minute), fiveMinutes)
    expect(late.certificate.status).toBe("delayed")
    expect(late.certificate.problems).toStrictEqual([caUnreachable])
  })

  it("orderWaiting: never scheduled past the delay, delayed once it has passed", () => {
    const polledOften = new CustomDomain({
      ...orderStarted(requested, order, t0),
      issuance: new Issuance({ requestedAt: t0, order, nextAttemptAt: null, attempts: 10 })
    })
    const waiting = orderWaiting(polledOften, [], at(4 * minute), fiveMinutes)
    expect(waiting.certificate.status).toBe("pending")
    expect(waiting.issuance?.nextAttemptAt).toStrictEqual(at(5 * minute))
    const late = orderWaiting(waiting, [caaProblem], at(5 * minute), fiveMinutes)
    expect(late.certificate.status).toBe("delayed")
    expect(late.certificate.problems).toStrictEqual([caaProblem])
    expect(late.issuance?.order).toBe(order)
  })

  it("a delay of 2 hours: still pending at 30 minutes, whatever the causes", () => {
    const blocked = attemptBlocked(requested, [caUnreachable], at(30 * minute), Duration.hours(2))
    expect(blocked.certificate.status).toBe("pending")
    expect(blocked.issuance?.nextAttemptAt?.getTime()).toBeLessThanOrEqual(at(2 * 60 * minute).getTime())
  })
})

describe("transitions", () => {
  it("orderStarted: keeps the request time, polls after 2 s", () => {
    const started = orderStarted(requested, order, at(5 * second))
    expect(started.issuance).toStrictEqual(
      new Issuance({ requestedAt: t0, order, nextAttemptAt: at(7 * second), attempts: 0 })
    )
    expect(started.certificate.status).toBe("pending")
  })

  it("orderWaiting: backs off, ignores the causes before 30 minutes, never schedules past the delay", () => {
    const started = orderStarted(requested, order, t0)
    const first = orderWaiting(started, [caaProblem], at(2 * second))
    expect(first.issuance?.nextAttemptAt).toStrictEqual(at(6 * second))
    expect(first.issuance?.attempts).toBe(1)
    const polledOften = new CustomDomain({
      ...started,
      issuance: new Issuance({ requestedAt: t0, order, nextAttemptAt: null, attempts: 10 })
    })
    const waiting = orderWaiting(polledOften, [caaProblem], at(29 * minute))
    expect(waiting.certificate.status).toBe("pending")
    expect(waiting.certificate.problems).toStrictEqual([])
    expect(waiting.issuance?.nextAttemptAt).toStrictEqual(at(30 * minute))
  })

  it("orderWaiting at 30 minutes: delayed with the causes, the order kept", () => {
    const late = orderWaiting(orderStarted(requested, order, t0), [caaProblem], at(30 * minute))
    expect(late.certificate.status).toBe("delayed")
    expect(late.certificate.problems).toStrictEqual([caaProblem])
    expect(late.issuance?.order).toBe(order)
  })

  it("attemptBlocked: drops the order and retries after 30 s, then 60 s", () => {
    const once = attemptBlocked(orderStarted(requested, order, t0), [caaProblem], at(minute))
    expect(once.issuance?.order).toBeNull()
    expect(once.issuance?.nextAttemptAt).toStrictEqual(at(minute + 60 * second))
    const twice = attemptBlocked(once, [caaProblem], at(2 * minute))
    expect(twice.issuance?.nextAttemptAt).toStrictEqual(at(2 * minute + 2 * minute))
  })

  it("certificateIssued: issued with the dates, no problems, renewal due 30 days before expiry", () => {
    const late = orderWaiting(requested, [caaProblem], at(31 * minute))
    const done = certificateIssued(late, { issuedAt: at(40 * minute), expiresAt: at(90 * day) })
    expect(done.certificate).toStrictEqual(
      new Certificate({ status: "issued", issuedAt: at(40 * minute), expiresAt: at(90 * day), problems: [] })
    )
    expect(done.issuance?.nextAttemptAt).toStrictEqual(at(60 * day))
    expect(done.issuance?.order).toBeNull()
  })

  it("orderRefused on a first issuance: failed, the CA's reason first, then the causes, no further attempt", () => {
    const refused = orderRefused(orderStarted(requested, order, t0), "rejected", [caaProblem], at(minute))
    expect(refused.certificate.status).toBe("failed")
    expect(refused.certificate.problems.map((problem) => problem.code)).toStrictEqual([
      "issuance_failed",
      "caa_blocks_issuer"
    ])
    expect(refused.certificate.problems[0]?.message).toContain("rejected")
    expect(refused.issuance?.nextAttemptAt).toBeNull()
  })

  it("orderRefused on a renewal: still issued with its dates, retried a day later", () => {
    const issued = certificateIssued(requested, { issuedAt: t0, expiresAt: at(90 * day) })
    const refused = orderRefused(issued, "rejected", [], at(60 * day))
    expect(refused.certificate.status).toBe("issued")
    expect(refused.certificate.expiresAt).toStrictEqual(at(90 * day))
    expect(refused.certificate.problems.map((problem) => problem.code)).toStrictEqual(["issuance_failed"])
    expect(refused.issuance?.nextAttemptAt).toStrictEqual(at(61 * day))
  })
})
