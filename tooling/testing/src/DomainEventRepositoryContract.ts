/**
 * The behaviour of the events outbox every store must have, as a test suite run against each adapter:
 * the store's own domain writes (CustomDomainRepository) append the events of each change, and
 * DomainEventRepository reads them back by project, oldest first, and forgets them by time. Every
 * test uses projects of its own, and moves a TestClock of its own: an event occurs when its write
 * happens. Purging sees every event of the store, so the purge test's events are the only ones from
 * before 2026.
 */
import { describe, expect, layer, type Vitest } from "@effect/vitest"
import { certificateIssued, orderStarted } from "@petstore/certificates"
import {
  applyVerdict,
  type CustomDomain,
  CustomDomainRepository,
  CustomDomainResource,
  OrderRef,
  Problem
} from "@petstore/domains"
import { DomainEvent, DomainEventId, DomainEventRepository, type DomainEventType } from "@petstore/events"
import type { ProjectId } from "@petstore/projects"
import { Array as Arr, Effect, type Layer, Option, Schema } from "effect"
import { TestClock } from "effect/testing"
import {
  decidedFromStored,
  freshHostname,
  later,
  newDomainOf,
  randomToken,
  roomyLimits,
  t0
} from "./ContractFixtures.js"
import { type DomainStore, drainDue, projectWith } from "./DomainRepositoryContract.js"

const second = 1_000
const minute = 60 * second
const hour = 60 * minute
const day = 24 * hour

const encodeResource = Schema.encodeSync(CustomDomainResource)

/** What an event says, as plain values: its public fields, `data` encoded as the API shows it. */
const told = (event: DomainEvent) => ({
  type: event.type,
  occurredAt: event.occurredAt.toISOString(),
  projectId: event.projectId,
  hostname: event.hostname,
  data: encodeResource(event.data)
})

/** The event a change of `domain` to this state should tell, at `at`. */
const expected = (type: DomainEventType, domain: CustomDomain, at: Date) => ({
  type,
  occurredAt: at.toISOString(),
  projectId: domain.projectId,
  hostname: domain.hostname,
  data: encodeResource(domain)
})

/** Every event of the project, page after page of `limit`; also the pages' sizes. */
const readAll = (projectId: ProjectId, limit = 100) =>
  Effect.gen(function* () {
    const repository = yield* DomainEventRepository
    const events: Array<DomainEvent> = []
    const pageSizes: Array<number> = []
    let after: Option.Option<DomainEventId> = Option.none()
    // The page cap keeps an implementation that always answers `nextAfter` from looping forever.
    while (pageSizes.length < 1000) {
      const page = yield* repository.listByProject({ projectId, after, limit })
      events.push(...page.events)
      pageSizes.push(page.events.length)
      if (Option.isNone(page.nextAfter)) break
      after = page.nextAfter
    }
    return { events, pageSizes }
  })

const eventsOf = (projectId: ProjectId) => Effect.map(readAll(projectId), ({ events }) => events)

/** Ids are decimal digits of numbers that only grow along a listing. */
const expectAscendingIds = (events: ReadonlyArray<DomainEvent>) => {
  for (const event of events) {
    expect(event).toBeInstanceOf(DomainEvent)
    expect(Schema.is(DomainEventId)(event.id)).toBe(true)
  }
  const ids = events.map((event) => BigInt(event.id))
  for (let n = 1; n < ids.length; n++) expect((ids[n] ?? 0n) > (ids[n - 1] ?? 0n)).toBe(true)
}

/** Sets the test's clock: the writes that follow happen at `at`. */
const clockAt = (at: Date) => TestClock.setTime(at.getTime())

const dnsError = new Problem({
  code: "dns_error",
  message: "The CNAME lookup did not get an answer (timeout)."
})
const notFound = new Problem({ code: "record_not_found", message: "No record was found." })
const orderRef = OrderRef.make("https://ca.example.test/acme/order/events")

export const domainEventRepositoryTests = (it: Vitest.MethodsNonLive<DomainStore>): void => {
  it.effect(
    "a domain's life tells its events in order: added, verified, certificate issued, problems changed, removed",
    () =>
      Effect.gen(function* () {
        const domains = yield* CustomDomainRepository
        yield* drainDue
        const { domains: fresh, project } = yield* projectWith(["subdomain"])
        const added = fresh[0] ?? (yield* Effect.die(new Error("no domain")))
        const addedAt = later(t0, hour)
        const verifiedAt = later(t0, 2 * hour)
        const issuedAt = later(t0, 3 * hour)
        const problemsAt = later(t0, 4 * hour)
        const removedAt = later(t0, 5 * hour)

        yield* clockAt(addedAt)
        yield* domains.insert(added, roomyLimits)
        // The owner's Verify finds the record.
        yield* clockAt(verifiedAt)
        const verified = applyVerdict(added, { _tag: "Verified", problems: [] }, verifiedAt)
        expect(yield* domains.update(verified)).toBe(true)
        // A worker leases it and stores the certificate it got.
        const holder = `events-${yield* randomToken}`
        const leased = yield* domains.claimDue(later(issuedAt, -minute), 10, {
          holder,
          until: later(issuedAt, hour)
        })
        expect(leased.map((domain) => domain.hostname)).toEqual([added.hostname])
        yield* clockAt(issuedAt)
        const issued = certificateIssued(orderStarted(verified, orderRef, issuedAt), {
          issuedAt,
          expiresAt: later(issuedAt, 90 * day)
        })
        const claimed = leased[0] ?? (yield* Effect.die(new Error("nothing leased")))
        expect(yield* domains.completeChecks([{ claimed, result: issued }], holder)).toEqual([
          { projectId: project.id, hostname: added.hostname }
        ])
        // A lookup without an answer: still verified, only what the owner is shown changes.
        yield* clockAt(problemsAt)
        const troubled = yield* decidedFromStored(
          applyVerdict(issued, { _tag: "Inconclusive", problems: [dnsError] }, problemsAt)
        )
        expect(troubled.status).toBe("verified")
        expect(yield* domains.update(troubled)).toBe(true)
        yield* clockAt(removedAt)
        expect(Option.isSome(yield* domains.remove(project.id, added.hostname))).toBe(true)

        const events = yield* eventsOf(project.id)
        expect(events.map(told)).toEqual([
          expected("domain.added", added, addedAt),
          expected("domain.verified", verified, verifiedAt),
          expected("certificate.issued", issued, issuedAt),
          expected("domain.problems_changed", troubled, problemsAt),
          // As it was when removed.
          expected("domain.removed", troubled, removedAt)
        ])
        expectAscendingIds(events)
        // The public resource only: none of the service's bookkeeping.
        for (const event of events) {
          expect(Object.keys(event.data).sort()).toEqual(Object.keys(encodeResource(added)).sort())
        }
      }).pipe(Effect.provide(TestClock.layer()))
  )

  it.effect("a check that finds what the last one found tells nothing", () =>
    Effect.gen(function* () {
      const domains = yield* CustomDomainRepository
      const { domains: fresh, project } = yield* projectWith(["apex"])
      const domain = fresh[0] ?? (yield* Effect.die(new Error("no domain")))
      yield* clockAt(later(t0, minute))
      yield* domains.insert(domain, roomyLimits)
      // The same check again: only its times change.
      const checked = applyVerdict(
        domain,
        { _tag: "Unverified", problems: [notFound] },
        later(t0, 2 * minute)
      )
      const again = applyVerdict(checked, { _tag: "Unverified", problems: [notFound] }, later(t0, 3 * minute))
      yield* clockAt(later(t0, 2 * minute))
      expect(yield* domains.update(checked)).toBe(true)
      yield* clockAt(later(t0, 3 * minute))
      expect(yield* domains.update(yield* decidedFromStored(again))).toBe(true)
      expect((yield* eventsOf(project.id)).map(told)).toEqual([
        expected("domain.added", domain, later(t0, minute)),
        expected("domain.problems_changed", checked, later(t0, 2 * minute))
      ])
    }).pipe(Effect.provide(TestClock.layer()))
  )

  it.effect("a refused write tells nothing: a lost lease, a missing domain, a hostname taken", () =>
    Effect.gen(function* () {
      const domains = yield* CustomDomainRepository
      yield* drainDue
      const { domains: fresh, project } = yield* projectWith(["subdomain"])
      const domain = fresh[0] ?? (yield* Effect.die(new Error("no domain")))
      const sameAccount = yield* projectWith([], project.account)
      yield* clockAt(t0)
      yield* domains.insert(domain, roomyLimits)

      // A's lease expired and B took the domain over: A's result is not stored, nor told.
      const now = later(t0, second)
      const [a, b] = [`a-${yield* randomToken}`, `b-${yield* randomToken}`]
      yield* domains.claimDue(now, 10, { holder: a, until: later(now, minute) })
      const takeover = later(now, 2 * minute)
      yield* domains.claimDue(takeover, 10, { holder: b, until: later(takeover, hour) })
      yield* clockAt(later(takeover, second))
      const byA = applyVerdict(domain, { _tag: "Verified", problems: [] }, later(takeover, second))
      expect(yield* domains.completeChecks([{ claimed: domain, result: byA }], a)).toEqual([])

      // The same hostname in another project of the account: refused, and neither project hears of it.
      const elsewhere = yield* newDomainOf(sameAccount.project, domain.hostname, later(t0, 5))
      const taken = yield* Effect.flip(domains.insert(elsewhere, roomyLimits))
      expect(taken._tag).toBe("HostnameTaken")
      // No such domain to update or remove in that project.
      expect(yield* domains.update(elsewhere)).toBe(false)
      expect(yield* domains.remove(sameAccount.project.id, domain.hostname)).toEqual(Option.none())
      const never = yield* newDomainOf(project, yield* freshHostname(), later(t0, 6))
      expect(yield* domains.update(never)).toBe(false)
      expect(yield* domains.remove(project.id, never.hostname)).toEqual(Option.none())

      expect((yield* eventsOf(project.id)).map(told)).toEqual([expected("domain.added", domain, t0)])
      expect(yield* eventsOf(sameAccount.project.id)).toEqual([])

      // Once removed, an update or a late result of B's finds nothing, and tells nothing more.
      yield* clockAt(later(t0, hour))
      expect(Option.isSome(yield* domains.remove(project.id, domain.hostname))).toBe(true)
      yield* clockAt(later(t0, 2 * hour))
      expect(yield* domains.update(byA)).toBe(false)
      expect(yield* domains.completeChecks([{ claimed: domain, result: byA }], b)).toEqual([])
      expect(yield* domains.remove(project.id, domain.hostname)).toEqual(Option.none())
      expect((yield* eventsOf(project.id)).map(told)).toEqual([
        expected("domain.added", domain, t0),
        expected("domain.removed", domain, later(t0, hour))
      ])
    }).pipe(Effect.provide(TestClock.layer()))
  )

  it.effect(
    "listByProject pages by id: limit, after, nextAfter only while more follow, this project's only",
    () =>
      Effect.gen(function* () {
        const domains = yield* CustomDomainRepository
        const events = yield* DomainEventRepository
        const { domains: mine, project } = yield* projectWith(Arr.replicate("subdomain" as const, 5))
        const { domains: theirs, project: other } = yield* projectWith(Arr.replicate("subdomain" as const, 3))
        // Interleaved: the other project's events fall between this one's.
        const interleaved = [mine[0], theirs[0], mine[1], mine[2], theirs[1], mine[3], theirs[2], mine[4]]
        for (const [n, domain] of interleaved.filter((domain) => domain !== undefined).entries()) {
          yield* clockAt(later(t0, n * second))
          yield* domains.insert(domain, roomyLimits)
        }
        const all = yield* eventsOf(project.id)
        expect(all.map((event) => event.hostname)).toEqual(mine.map((domain) => domain.hostname))
        expect(all.every((event) => event.type === "domain.added" && event.projectId === project.id)).toBe(
          true
        )
        expectAscendingIds(all)
        expect((yield* eventsOf(other.id)).map((event) => event.hostname)).toEqual(
          theirs.map((domain) => domain.hostname)
        )

        // Pages of 2: 2, 2, 1, the cursor of each page its last event, none on the last page.
        const paged = yield* readAll(project.id, 2)
        expect(paged.pageSizes).toEqual([2, 2, 1])
        expect(paged.events.map((event) => event.id)).toEqual(all.map((event) => event.id))
        const firstPage = yield* events.listByProject({
          projectId: project.id,
          after: Option.none(),
          limit: 2
        })
        expect(firstPage.nextAfter).toEqual(Option.some(all[1]?.id))
        const secondPage = yield* events.listByProject({
          projectId: project.id,
          after: firstPage.nextAfter,
          limit: 2
        })
        expect(secondPage.events.map((event) => event.id)).toEqual([all[2]?.id, all[3]?.id])
        // A page that ends exactly at the last event: nothing follows.
        const exact = yield* events.listByProject({ projectId: project.id, after: Option.none(), limit: 5 })
        expect(exact.events).toHaveLength(5)
        expect(exact.nextAfter).toEqual(Option.none())
        const last = all[4]?.id ?? (yield* Effect.die(new Error("no event")))
        expect(
          yield* events.listByProject({ projectId: project.id, after: Option.some(last), limit: 5 })
        ).toEqual({
          events: [],
          nextAfter: Option.none()
        })
        // A cursor beyond any id there is, or any the database could hold.
        for (const beyond of ["9223372036854775807", "9999999999999999999"]) {
          expect(
            yield* events.listByProject({
              projectId: project.id,
              after: Option.some(DomainEventId.make(beyond)),
              limit: 5
            })
          ).toEqual({ events: [], nextAfter: Option.none() })
        }
        // Another project's cursor only says where to start: this project's events after it.
        const theirsListed = yield* eventsOf(other.id)
        const cursor = theirsListed[0]?.id ?? (yield* Effect.die(new Error("no event")))
        const afterTheirs = yield* events.listByProject({
          projectId: project.id,
          after: Option.some(cursor),
          limit: 100
        })
        expect(afterTheirs.events.map((event) => event.id)).toEqual(
          all.filter((event) => BigInt(event.id) > BigInt(cursor)).map((event) => event.id)
        )
        expect(afterTheirs.events.map((event) => event.hostname)).toEqual(
          [mine[1], mine[2], mine[3], mine[4]].map((domain) => domain?.hostname)
        )
        // A project without events.
        const { project: quiet } = yield* projectWith([])
        expect(yield* events.listByProject({ projectId: quiet.id, after: Option.none(), limit: 10 })).toEqual(
          {
            events: [],
            nextAfter: Option.none()
          }
        )
      }).pipe(Effect.provide(TestClock.layer()))
  )

  it.effect("purge forgets the events that occurred before the time given, and says how many", () =>
    Effect.gen(function* () {
      const domains = yield* CustomDomainRepository
      const events = yield* DomainEventRepository
      // Before any other test's events (theirs occur from 2026 on).
      const upTo = new Date("2001-01-01T00:00:00.000Z")
      const { domains: fresh, project } = yield* projectWith(Arr.replicate("subdomain" as const, 4))
      const { domains: elsewhere, project: other } = yield* projectWith(["apex"])
      const times = [-day, -1, 0, second]
      for (const [n, domain] of fresh.entries()) {
        yield* clockAt(later(upTo, times[n] ?? 0))
        yield* domains.insert(domain, roomyLimits)
      }
      yield* clockAt(later(upTo, -hour))
      yield* domains.insert(elsewhere[0] ?? (yield* Effect.die(new Error("no domain"))), roomyLimits)

      expect(yield* events.purge(upTo)).toBe(3)
      // An event at the very time given is kept.
      expect((yield* eventsOf(project.id)).map(told)).toEqual([
        expected("domain.added", fresh[2] ?? (yield* Effect.die(new Error("no domain"))), upTo),
        expected("domain.added", fresh[3] ?? (yield* Effect.die(new Error("no domain"))), later(upTo, second))
      ])
      expect(yield* eventsOf(other.id)).toEqual([])
      expect(yield* events.purge(upTo)).toBe(0)
      // The domains themselves are untouched.
      expect((yield* domains.listByProject(project.id)).map((domain) => domain.hostname)).toEqual(
        fresh.map((domain) => domain.hostname)
      )
    }).pipe(Effect.provide(TestClock.layer()))
  )

  it.effect("concurrent updates of one domain each tell the change from the state they replaced", () =>
    Effect.gen(function* () {
      const domains = yield* CustomDomainRepository
      const { domains: fresh, project } = yield* projectWith(["subdomain"])
      const domain = fresh[0] ?? (yield* Effect.die(new Error("no domain")))
      yield* clockAt(t0)
      yield* domains.insert(domain, roomyLimits)
      // Three states that differ in their problems alone: every change between two is one event.
      const checkedAt = later(t0, second)
      const states = [
        domain,
        applyVerdict(domain, { _tag: "Unverified", problems: [notFound] }, checkedAt),
        applyVerdict(domain, { _tag: "Unverified", problems: [dnsError] }, checkedAt)
      ]
      const targets = Arr.range(1, 30).map((n) => states[n % states.length] ?? domain)
      yield* clockAt(later(t0, minute))
      yield* Effect.forEach(targets, domains.update, { concurrency: "unbounded" })

      // Whatever order they were stored in, each event starts from the last one's state: never the
      // same state twice in a row (a write that read a stale state would tell a change that was not).
      const told = (yield* eventsOf(project.id)).map(
        (event) => [event.type, encodeResource(event.data)] as const
      )
      expect(told[0]).toEqual(["domain.added", encodeResource(domain)])
      expect(told.slice(1).every(([type]) => type === "domain.problems_changed")).toBe(true)
      for (let n = 1; n < told.length; n++) expect(told[n]?.[1]).not.toEqual(told[n - 1]?.[1])
      const stored = yield* domains.findInProject(project.id, domain.hostname)
      expect(Option.map(stored, encodeResource)).toEqual(Option.some(told.at(-1)?.[1]))
    }).pipe(Effect.provide(TestClock.layer()))
  )

  it.effect("20 concurrent updates of different domains each leave their events", () =>
    Effect.gen(function* () {
      const domains = yield* CustomDomainRepository
      const { domains: fresh, project } = yield* projectWith(Arr.replicate("subdomain" as const, 20))
      yield* clockAt(t0)
      yield* Effect.forEach(fresh, (row) => domains.insert(row, roomyLimits), { concurrency: 4 })
      yield* clockAt(later(t0, minute))
      const verified = fresh.map((domain) =>
        applyVerdict(domain, { _tag: "Verified", problems: [] }, later(t0, minute))
      )
      const stored = yield* Effect.forEach(verified, domains.update, { concurrency: "unbounded" })
      expect(stored).toEqual(Arr.replicate(true, 20))

      const events = yield* eventsOf(project.id)
      expect(events).toHaveLength(40)
      expectAscendingIds(events)
      for (const [n, domain] of fresh.entries()) {
        expect(events.filter((event) => event.hostname === domain.hostname).map(told)).toEqual([
          expected("domain.added", domain, t0),
          expected("domain.verified", verified[n] ?? domain, later(t0, minute))
        ])
      }
    }).pipe(Effect.provide(TestClock.layer()))
  )
}

/** Runs the suite against one fresh store built from `store`. */
export const domainEventRepositoryContract = <E>(
  name: string,
  store: Layer.Layer<DomainStore, E>,
  options: { readonly timeout?: number } = {}
): void =>
  layer(store, {
    excludeTestServices: true,
    ...(options.timeout === undefined ? {} : { timeout: options.timeout })
  })(name, (it) => describe("DomainEventRepository", () => domainEventRepositoryTests(it)))
