/**
 * The behaviour every WebhookDeliveryRepository must have, with the store's own event writes filling
 * it (the outbox's fan-out), as a test suite run against each adapter: an event is owed to every
 * webhook of its project stored before it that listens to its type, due at once; deliveries to one
 * webhook of one hostname's events go in event order; leases keep workers apart and a lost lease's
 * result is not stored; a delivery goes with its event when retention forgets it. Every test uses
 * projects of its own and moves a TestClock of its own (an event occurs when its write happens), and
 * first leases whatever earlier tests left due away (`drainDeliveries`). Forgetting events sees every
 * event of the store, so that test's events are the only ones from before 2000, and it forgets them
 * all before it ends.
 */
import { describe, expect, layer, type Vitest } from "@effect/vitest"
import {
  applyVerdict,
  CustomDomainRepository,
  DeliveryAttempt,
  DomainEvent,
  DomainEventRepository,
  type DomainEventType,
  type ProjectId,
  WebhookDelivery,
  WebhookDeliveryRepository,
  WebhookRepository
} from "@petstore/custom-domains"
import { Array as Arr, Effect, type Layer, Option, Schema } from "effect"
import { TestClock } from "effect/testing"
import { later, roomyLimits, t0 } from "./ContractFixtures.js"
import { projectWith } from "./DomainRepositoryContract.js"
import {
  attemptResult,
  claimedOf,
  claimedTexts,
  clockAt,
  deliveryText,
  drainDeliveries,
  freshHolder,
  storeWebhook,
  type WebhookStore
} from "./WebhookRepositoryContract.js"

const second = 1_000
const minute = 60 * second
const hour = 60 * minute
const day = 24 * hour

/** Every field, as plain values (dates as ISO strings): what two stores must agree on. */
const encodeEvent = (event: DomainEvent) => Schema.encodeSync(DomainEvent)(event)
const encodeDelivery = (delivery: WebhookDelivery) => Schema.encodeSync(WebhookDelivery)(delivery)
const encodeAttempt = (attempt: DeliveryAttempt) => Schema.encodeSync(DeliveryAttempt)(attempt)

/** The project's events, oldest first (fewer than a page in these tests). */
const eventsOf = (projectId: ProjectId) =>
  Effect.flatMap(DomainEventRepository, (events) =>
    Effect.map(events.listByProject({ projectId, after: Option.none(), limit: 100 }), (page) => page.events)
  )

/** The project's event of `type` about `hostname`; a defect when there is none. */
const eventOf = (projectId: ProjectId, hostname: string, type: DomainEventType) =>
  Effect.flatMap(eventsOf(projectId), (events) => {
    const found = events.find((event) => event.hostname === hostname && event.type === type)
    return found === undefined
      ? Effect.die(new Error(`no ${type} event of ${hostname}`))
      : Effect.succeed(found)
  })

const verified = { _tag: "Verified", problems: [] } as const

export const webhookDeliveryRepositoryTests = (it: Vitest.MethodsNonLive<WebhookStore>): void => {
  it.effect(
    "an event is owed to each webhook of its project stored before it that listens to its type, due at once",
    () =>
      Effect.gen(function* () {
        const domains = yield* CustomDomainRepository
        const deliveries = yield* WebhookDeliveryRepository
        yield* drainDeliveries
        const { domains: fresh, project } = yield* projectWith(["subdomain", "apex", "subdomain"])
        const { project: other } = yield* projectWith([], project.account)
        const [d1, d2, d3] = fresh
        if (d1 === undefined || d2 === undefined || d3 === undefined) return yield* Effect.die("no domains")

        // Before any webhook: owed to none.
        yield* clockAt(t0)
        yield* domains.insert(d1, roomyLimits)
        const every = yield* storeWebhook(project.id, later(t0, second))
        const verifiedOnly = yield* storeWebhook(project.id, later(t0, second), ["domain.verified"])
        const certificates = yield* storeWebhook(project.id, later(t0, second), [
          "certificate.issued",
          "certificate.renewed"
        ])
        const nothing = yield* storeWebhook(project.id, later(t0, second), [])
        const elsewhere = yield* storeWebhook(other.id, later(t0, second))
        yield* clockAt(later(t0, minute))
        yield* domains.insert(d2, roomyLimits)
        yield* clockAt(later(t0, 2 * minute))
        expect(yield* domains.update(applyVerdict(d1, verified, later(t0, 2 * minute)))).toBe(true)
        // Stored after those events: owed the next ones only.
        const late = yield* storeWebhook(project.id, later(t0, 3 * minute))
        yield* clockAt(later(t0, 4 * minute))
        yield* domains.insert(d3, roomyLimits)

        const added2 = yield* eventOf(project.id, d2.hostname, "domain.added")
        const verified1 = yield* eventOf(project.id, d1.hostname, "domain.verified")
        const added3 = yield* eventOf(project.id, d3.hostname, "domain.added")
        const owed = (webhook: typeof every, event: DomainEvent) =>
          deliveryText({ webhookId: webhook.id, eventId: event.id })

        // Due when its event occurred: the last one not yet, a millisecond before.
        const holder = yield* freshHolder("fan-out")
        const early = yield* deliveries.claimDue(later(t0, 4 * minute - 1), 100, {
          holder,
          until: later(t0, 4 * minute)
        })
        expect(claimedTexts(early)).toEqual(
          [owed(every, added2), owed(every, verified1), owed(verifiedOnly, verified1)].sort()
        )
        // Those leases have run out: every delivery owed is claimed, none other.
        const claimed = yield* deliveries.claimDue(later(t0, 4 * minute), 100, {
          holder,
          until: later(t0, hour)
        })
        expect(claimedTexts(claimed)).toEqual(
          [
            owed(every, added2),
            owed(every, verified1),
            owed(verifiedOnly, verified1),
            owed(every, added3),
            owed(late, added3)
          ].sort()
        )
        const webhooksOwed = new Set(claimed.map(({ delivery }) => delivery.webhookId))
        for (const none of [certificates, nothing, elsewhere]) expect(webhooksOwed.has(none.id)).toBe(false)
        // Oldest due first.
        const dueTimes = claimed.map(({ delivery }) => delivery.nextAttemptAt.getTime())
        expect(dueTimes).toEqual([...dueTimes].sort((a, b) => a - b))

        // Each comes with its event as stored, and its webhook's URL and secret; no attempt made yet.
        const webhooks = [every, verifiedOnly, late]
        for (const { delivery, event, secret, url } of claimed) {
          const webhook = webhooks.find((candidate) => candidate.id === delivery.webhookId)
          const stored = [added2, verified1, added3].find((candidate) => candidate.id === delivery.eventId)
          expect(event).toBeInstanceOf(DomainEvent)
          expect(delivery).toBeInstanceOf(WebhookDelivery)
          expect(encodeEvent(event)).toEqual(stored === undefined ? undefined : encodeEvent(stored))
          expect({ url, secret }).toEqual({ url: webhook?.url, secret: webhook?.secret })
          expect(encodeDelivery(delivery)).toEqual({
            webhookId: webhook?.id,
            eventId: event.id,
            hostname: event.hostname,
            attempts: 0,
            firstAttemptAt: null,
            nextAttemptAt: event.occurredAt.toISOString(),
            status: "pending"
          })
        }
      }).pipe(Effect.provide(TestClock.layer()))
  )

  it.effect(
    "in order per webhook and hostname: a later event waits while an earlier one is pending, others do not",
    () =>
      Effect.gen(function* () {
        const domains = yield* CustomDomainRepository
        const deliveries = yield* WebhookDeliveryRepository
        yield* drainDeliveries
        const { domains: fresh, project } = yield* projectWith(["subdomain", "subdomain"])
        const [d1, d2] = fresh
        if (d1 === undefined || d2 === undefined) return yield* Effect.die("no domains")
        const first = yield* storeWebhook(project.id, t0)
        const second_ = yield* storeWebhook(project.id, t0)
        yield* clockAt(t0)
        yield* domains.insert(d1, roomyLimits)
        yield* domains.insert(d2, roomyLimits)
        yield* clockAt(later(t0, minute))
        expect(yield* domains.update(applyVerdict(d1, verified, later(t0, minute)))).toBe(true)
        const added1 = yield* eventOf(project.id, d1.hostname, "domain.added")
        const added2 = yield* eventOf(project.id, d2.hostname, "domain.added")
        const verified1 = yield* eventOf(project.id, d1.hostname, "domain.verified")
        const texts = (...pairs: ReadonlyArray<readonly [typeof first, DomainEvent]>) =>
          pairs.map(([webhook, event]) => deliveryText({ webhookId: webhook.id, eventId: event.id })).sort()

        const holder = yield* freshHolder("order")
        const claimAt = (at: Date, until = later(at, hour)) => deliveries.claimDue(at, 100, { holder, until })
        // d1's verification waits behind its addition, for both webhooks; d2's addition does not.
        const firstRound = yield* claimAt(later(t0, 2 * minute))
        expect(claimedTexts(firstRound)).toEqual(
          texts([first, added1], [first, added2], [second_, added1], [second_, added2])
        )
        // Even once the leases run out, only the additions come again.
        const additions = texts([first, added1], [first, added2], [second_, added1], [second_, added2])
        expect(claimedTexts(yield* claimAt(later(t0, 3 * hour), later(t0, day)))).toEqual(additions)
        const at = (minutes: number) => later(t0, 3 * hour + minutes * minute)
        // Leased, the additions still hold the verification back.
        expect(yield* claimAt(at(30))).toEqual([])
        const firstAdded1 = yield* claimedOf(firstRound, first.id, d1.hostname)

        // The addition failed once and waits for its retry: the verification still waits behind it.
        const retry = attemptResult(firstAdded1, "retrying", at(62), at(70))
        expect((yield* deliveries.complete([retry], holder)).map(deliveryText)).toEqual([
          deliveryText(firstAdded1.delivery)
        ])
        expect(yield* claimAt(at(69))).toEqual([])
        const retried = yield* claimAt(at(70))
        expect(claimedTexts(retried)).toEqual(texts([first, added1]))
        const again = yield* claimedOf(retried, first.id, d1.hostname)
        expect(again.delivery.attempts).toBe(1)

        // Delivered: the verification comes next, to that webhook only (the other's addition is pending).
        expect(yield* deliveries.complete([attemptResult(again, "delivered", at(71))], holder)).toHaveLength(
          1
        )
        expect(claimedTexts(yield* claimAt(at(72)))).toEqual(texts([first, verified1]))
        // Failed for good: that too lets the next event go.
        const secondAdded1 = yield* claimedOf(firstRound, second_.id, d1.hostname)
        expect(
          yield* deliveries.complete([attemptResult(secondAdded1, "failed", at(73))], holder)
        ).toHaveLength(1)
        expect(claimedTexts(yield* claimAt(at(74)))).toEqual(texts([second_, verified1]))
        // Once every lease has run out, what is still pending comes again; the delivered and the failed never.
        expect(claimedTexts(yield* claimAt(later(t0, 30 * day)))).toEqual(
          texts([first, added2], [second_, added2], [first, verified1], [second_, verified1])
        )
      }).pipe(Effect.provide(TestClock.layer()))
  )

  it.effect(
    "a lease keeps other workers away until it expires; a lost lease's result is not stored, the holder's is",
    () =>
      Effect.gen(function* () {
        const domains = yield* CustomDomainRepository
        const deliveries = yield* WebhookDeliveryRepository
        const webhooks = yield* WebhookRepository
        yield* drainDeliveries
        const { domains: fresh, project } = yield* projectWith(["subdomain"])
        const domain = fresh[0] ?? (yield* Effect.die(new Error("no domain")))
        const webhook = yield* storeWebhook(project.id, t0)
        yield* clockAt(t0)
        yield* domains.insert(domain, roomyLimits)
        const [a, b] = [yield* freshHolder("a"), yield* freshHolder("b")]

        const byA = yield* deliveries.claimDue(later(t0, second), 10, { holder: a, until: later(t0, minute) })
        expect(byA.map(({ delivery }) => delivery.webhookId)).toEqual([webhook.id])
        const claimedByA = byA[0] ?? (yield* Effect.die(new Error("not claimed")))
        expect(
          yield* deliveries.claimDue(later(t0, 30 * second), 10, { holder: b, until: later(t0, hour) })
        ).toEqual([])
        // A's lease expired: B takes the delivery over, as it was (A stored nothing).
        const byB = yield* deliveries.claimDue(later(t0, 2 * minute), 10, {
          holder: b,
          until: later(t0, hour)
        })
        expect(claimedTexts(byB)).toEqual(claimedTexts(byA))
        const claimedByB = byB[0] ?? (yield* Effect.die(new Error("not claimed")))
        expect(claimedByB.delivery.attempts).toBe(0)

        // A's late result is not stored, nor its attempt recorded.
        const lateA = attemptResult(claimedByA, "delivered", later(t0, 2 * minute + second))
        expect(yield* deliveries.complete([lateA], a)).toEqual([])
        expect(
          yield* deliveries.claimDue(later(t0, 3 * minute), 10, { holder: a, until: later(t0, hour) })
        ).toEqual([])
        expect(yield* webhooks.listAttempts(project.id, webhook.id, 10)).toEqual([])

        // B's result is stored; its lease ends with it, so a stale second result stores nothing.
        const byBResult = attemptResult(claimedByB, "retrying", later(t0, 3 * minute), later(t0, 4 * minute))
        expect((yield* deliveries.complete([byBResult], b)).map(deliveryText)).toEqual([
          deliveryText(claimedByB.delivery)
        ])
        expect(yield* deliveries.complete([byBResult], b)).toEqual([])
        expect((yield* webhooks.listAttempts(project.id, webhook.id, 10)).map(encodeAttempt)).toEqual([
          encodeAttempt(byBResult.attempt)
        ])
        const retried = yield* deliveries.claimDue(later(t0, 4 * minute), 10, {
          holder: a,
          until: later(t0, hour)
        })
        expect(retried.map(({ delivery }) => encodeDelivery(delivery))).toEqual([
          encodeDelivery(byBResult.delivery)
        ])
      }).pipe(Effect.provide(TestClock.layer()))
  )

  it.effect("releaseLease gives a delivery back at once, only for its holder", () =>
    Effect.gen(function* () {
      const domains = yield* CustomDomainRepository
      const deliveries = yield* WebhookDeliveryRepository
      yield* drainDeliveries
      const { domains: fresh, project } = yield* projectWith(["apex"])
      const domain = fresh[0] ?? (yield* Effect.die(new Error("no domain")))
      yield* storeWebhook(project.id, t0)
      yield* clockAt(t0)
      yield* domains.insert(domain, roomyLimits)
      const [a, b] = [yield* freshHolder("a"), yield* freshHolder("b")]
      const now = later(t0, second)
      const claimed = yield* deliveries.claimDue(now, 10, { holder: a, until: later(now, hour) })
      const key = claimed[0]?.delivery ?? (yield* Effect.die(new Error("not claimed")))
      expect(claimed).toHaveLength(1)
      expect(yield* deliveries.claimDue(now, 10, { holder: b, until: later(now, hour) })).toEqual([])
      // Not B's to give back.
      yield* deliveries.releaseLease({ webhookId: key.webhookId, eventId: key.eventId }, b)
      expect(yield* deliveries.claimDue(now, 10, { holder: b, until: later(now, hour) })).toEqual([])
      yield* deliveries.releaseLease({ webhookId: key.webhookId, eventId: key.eventId }, a)
      const byB = yield* deliveries.claimDue(now, 10, { holder: b, until: later(now, hour) })
      expect(claimedTexts(byB)).toEqual(claimedTexts(claimed))
      // A no longer holds it: its result is not stored.
      const byA = claimed[0] ?? (yield* Effect.die(new Error("not claimed")))
      expect(yield* deliveries.complete([attemptResult(byA, "delivered", now)], a)).toEqual([])
    }).pipe(Effect.provide(TestClock.layer()))
  )

  it.effect(
    "claims take at most the limit, oldest due first, and concurrent claims never share a delivery",
    () =>
      Effect.gen(function* () {
        const domains = yield* CustomDomainRepository
        const deliveries = yield* WebhookDeliveryRepository
        yield* drainDeliveries
        const { domains: fresh, project } = yield* projectWith(Arr.replicate("subdomain" as const, 16))
        yield* storeWebhook(project.id, t0)
        // Stored in one order, due in the reverse: the one added last is the oldest due.
        for (const [n, domain] of fresh.entries()) {
          yield* clockAt(later(t0, (fresh.length - n) * second))
          yield* domains.insert(domain, roomyLimits)
        }
        const now = later(t0, hour)
        const holder = yield* freshHolder("limit")
        const firstThree = yield* deliveries.claimDue(now, 3, { holder, until: later(now, minute) })
        expect(firstThree.map(({ event }) => event.hostname)).toEqual(
          fresh
            .slice(-3)
            .reverse()
            .map((domain) => domain.hostname)
        )
        expect(yield* deliveries.claimDue(now, 0, { holder, until: later(now, minute) })).toEqual([])

        // Four workers at once, four each: every one of the 13 left is leased to one of them at most.
        const workers = yield* Effect.forEach(Arr.range(1, 4), (n) => freshHolder(`worker${n}`))
        const rounds = yield* Effect.forEach(
          workers,
          (worker) => deliveries.claimDue(now, 4, { holder: worker, until: later(now, hour) }),
          { concurrency: "unbounded" }
        )
        const leased = rounds.flatMap(claimedTexts)
        expect(new Set(leased).size).toBe(leased.length)
        expect(leased.length).toBeLessThanOrEqual(13)
        const rest = yield* deliveries.claimDue(now, 100, { holder, until: later(now, hour) })
        const all = [...claimedTexts(firstThree), ...leased, ...claimedTexts(rest)]
        expect(new Set(all).size).toBe(16)
        expect(all).toHaveLength(16)
      }).pipe(Effect.provide(TestClock.layer()))
  )

  it.effect(
    "forgetting an event forgets its deliveries and their attempts: a pending one no longer holds up its hostname",
    () =>
      Effect.gen(function* () {
        const domains = yield* CustomDomainRepository
        const deliveries = yield* WebhookDeliveryRepository
        const events = yield* DomainEventRepository
        const webhooks = yield* WebhookRepository
        yield* drainDeliveries
        // Before any other test's events (theirs occur from 2000 on).
        const long = new Date("1999-06-01T00:00:00.000Z")
        const { domains: fresh, project } = yield* projectWith(["subdomain"])
        const domain = fresh[0] ?? (yield* Effect.die(new Error("no domain")))
        const webhook = yield* storeWebhook(project.id, long)
        yield* clockAt(long)
        yield* domains.insert(domain, roomyLimits)
        yield* clockAt(later(long, 40 * day))
        expect(yield* domains.update(applyVerdict(domain, verified, later(long, 40 * day)))).toBe(true)

        const holder = yield* freshHolder("purge")
        const now = later(long, 40 * day + minute)
        const claimed = yield* deliveries.claimDue(now, 10, { holder, until: later(now, minute) })
        expect(claimed.map(({ event }) => event.type)).toEqual(["domain.added"])
        const added = claimed[0] ?? (yield* Effect.die(new Error("not claimed")))
        const retrying = attemptResult(added, "retrying", now, later(now, day))
        expect(yield* deliveries.complete([retrying], holder)).toHaveLength(1)
        expect((yield* webhooks.listAttempts(project.id, webhook.id, 10)).map(encodeAttempt)).toEqual([
          encodeAttempt(retrying.attempt)
        ])

        // Retention forgets the addition (still pending): the verification is owed at once.
        expect(yield* events.purge(later(long, 30 * day))).toBe(1)
        const next = yield* deliveries.claimDue(later(now, second), 10, { holder, until: later(now, hour) })
        expect(next.map(({ delivery, event }) => [delivery.webhookId, event.type])).toEqual([
          [webhook.id, "domain.verified"]
        ])
        // A late result for the forgotten delivery stores nothing.
        expect(
          yield* deliveries.complete([attemptResult(added, "delivered", later(now, second))], holder)
        ).toEqual([])
        expect(yield* webhooks.listAttempts(project.id, webhook.id, 10)).toEqual([])
        // The last of this test's events goes too: none stays behind from before 2000.
        expect(yield* events.purge(new Date("2000-01-01T00:00:00.000Z"))).toBe(1)
        expect(
          yield* deliveries.claimDue(later(now, 2 * day), 10, { holder, until: later(now, 3 * day) })
        ).toEqual([])
      }).pipe(Effect.provide(TestClock.layer()))
  )
}

/** Runs the suite against one fresh store built from `store`. */
export const webhookDeliveryRepositoryContract = <E>(
  name: string,
  store: Layer.Layer<WebhookStore, E>,
  options: { readonly timeout?: number } = {}
): void =>
  layer(store, {
    excludeTestServices: true,
    ...(options.timeout === undefined ? {} : { timeout: options.timeout })
  })(name, (it) => describe("WebhookDeliveryRepository", () => webhookDeliveryRepositoryTests(it)))
