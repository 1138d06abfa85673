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
import { applyVerdict, CustomDomainRepository } from "@petstore/domains"
import { DomainEvent, DomainEventRepository, type DomainEventType } from "@petstore/events"
import type { ProjectId } from "@petstore/projects"
import {
  DeliveryAttempt,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryRepository,
  WebhookRepository
} from "@petstore/webhooks"
import { Array as Arr, Effect, type Layer, Option, Schema } from "effect"
import { TestClock } from "effect/testing"
import { later, roomyLimits, t0 } from "./ContractFixtures.js"
import { projectWith } from "./DomainRepositoryContract.js"
import {
  attemptResult,
  claimEvery,
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

        // Due when its event occurred: the last one not yet, a millisecond before. One lane (webhook) at
        // a time: each claim takes one delivery per webhook; delivering it lets the next come.
        const holder = yield* freshHolder("fan-out")
        const early = yield* claimEvery(later(t0, 4 * minute - 1), holder)
        expect(claimedTexts(early)).toEqual(
          [owed(every, added2), owed(every, verified1), owed(verifiedOnly, verified1)].sort()
        )
        // Every delivery owed is claimed, none other.
        const claimed = [...early, ...(yield* claimEvery(later(t0, 4 * minute), holder))]
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

        // Each comes with its event as stored, and its webhook's URL and secret; no attempt made yet.
        const webhooks = [every, verifiedOnly, late]
        for (const { delivery, event, failingSince, secrets, url } of claimed) {
          const webhook = webhooks.find((candidate) => candidate.id === delivery.webhookId)
          const stored = [added2, verified1, added3].find((candidate) => candidate.id === delivery.eventId)
          expect(event).toBeInstanceOf(DomainEvent)
          expect(delivery).toBeInstanceOf(WebhookDelivery)
          expect(encodeEvent(event)).toEqual(stored === undefined ? undefined : encodeEvent(stored))
          expect({ url, secrets, failingSince }).toEqual({
            url: webhook?.url,
            secrets: [webhook?.secret],
            failingSince: null
          })
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
    "in order per webhook and hostname: a later event waits while an earlier one is pending, others do not; one delivery per webhook at a time",
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
        // One per webhook, its oldest due (equally due: the earliest event).
        const firstRound = yield* claimAt(later(t0, 2 * minute))
        expect(claimedTexts(firstRound)).toEqual(texts([first, added1], [second_, added1]))
        // Both lanes are busy while those are leased.
        expect(yield* claimAt(later(t0, 3 * minute))).toEqual([])
        // Once the leases run out, the same come again: nothing was stored.
        const again = yield* claimAt(later(t0, 3 * hour), later(t0, day))
        expect(claimedTexts(again)).toEqual(texts([first, added1], [second_, added1]))
        const at = (minutes: number) => later(t0, 3 * hour + minutes * minute)
        expect(yield* claimAt(at(30))).toEqual([])
        const firstAdded1 = yield* claimedOf(again, first.id, d1.hostname)

        // The addition failed once and waits for its retry: its lane takes d2's addition meanwhile, and
        // d1's verification still waits behind it.
        const retry = attemptResult(firstAdded1, "retrying", at(62), at(70))
        expect((yield* deliveries.complete([retry], holder)).map(deliveryText)).toEqual([
          deliveryText(firstAdded1.delivery)
        ])
        const next = yield* claimAt(at(63))
        expect(claimedTexts(next)).toEqual(texts([first, added2]))
        const firstAdded2 = yield* claimedOf(next, first.id, d2.hostname)
        expect(
          yield* deliveries.complete([attemptResult(firstAdded2, "delivered", at(64))], holder)
        ).toHaveLength(1)
        expect(yield* claimAt(at(69))).toEqual([])
        const retried = yield* claimAt(at(70))
        expect(claimedTexts(retried)).toEqual(texts([first, added1]))
        const secondTry = yield* claimedOf(retried, first.id, d1.hostname)
        expect(secondTry.delivery.attempts).toBe(1)

        // Delivered: the verification comes next, to that webhook only (the other's lane is still leased).
        expect(
          yield* deliveries.complete([attemptResult(secondTry, "delivered", at(71))], holder)
        ).toHaveLength(1)
        expect(claimedTexts(yield* claimAt(at(72)))).toEqual(texts([first, verified1]))
        // Failed for good: that too lets the next event go.
        const secondAdded1 = yield* claimedOf(again, second_.id, d1.hostname)
        expect(
          yield* deliveries.complete([attemptResult(secondAdded1, "failed", at(73))], holder)
        ).toHaveLength(1)
        expect(claimedTexts(yield* claimAt(at(74)))).toEqual(texts([second_, added2]))
        // Once every lease has run out, what is still pending comes again, one per webhook; the
        // delivered and the failed never.
        expect(claimedTexts(yield* claimAt(later(t0, 30 * day)))).toEqual(
          texts([first, verified1], [second_, added2])
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
    "claims take at most the limit, oldest due first, and concurrent claims never share a delivery nor a webhook",
    () =>
      Effect.gen(function* () {
        const domains = yield* CustomDomainRepository
        const deliveries = yield* WebhookDeliveryRepository
        yield* drainDeliveries
        // Sixteen webhooks of sixteen projects, one event each: stored in one order, due in the reverse.
        const hostnames: Array<string> = []
        const count = 16
        for (let n = 0; n < count; n++) {
          const { domains: fresh, project } = yield* projectWith(["subdomain"])
          const domain = fresh[0] ?? (yield* Effect.die(new Error("no domain")))
          yield* storeWebhook(project.id, t0)
          yield* clockAt(later(t0, (count - n) * second))
          yield* domains.insert(domain, roomyLimits)
          hostnames.push(domain.hostname)
        }
        const now = later(t0, hour)
        const holder = yield* freshHolder("limit")
        const firstThree = yield* deliveries.claimDue(now, 3, { holder, until: later(now, minute) })
        expect(firstThree.map(({ event }) => event.hostname)).toEqual(hostnames.slice(-3).reverse())
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
        expect(new Set(all).size).toBe(count)
        expect(all).toHaveLength(count)

        // One webhook with eight hostnames due: however many claim at once, one delivery is leased.
        const { domains: eight, project } = yield* projectWith(Arr.replicate("subdomain" as const, 8))
        yield* storeWebhook(project.id, t0)
        yield* clockAt(t0)
        for (const domain of eight) yield* domains.insert(domain, roomyLimits)
        const racing = yield* Effect.forEach(
          workers,
          (worker) => deliveries.claimDue(now, 8, { holder: worker, until: later(now, hour) }),
          { concurrency: "unbounded" }
        )
        expect(racing.flat()).toHaveLength(1)
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
  it.effect(
    "a rotated secret signs beside the new one until 24 hours after the rotation; rotation and enabling stay in their project",
    () =>
      Effect.gen(function* () {
        const domains = yield* CustomDomainRepository
        const webhooks = yield* WebhookRepository
        yield* drainDeliveries
        const { domains: fresh, project } = yield* projectWith(["subdomain"])
        const { project: other } = yield* projectWith([], project.account)
        const domain = fresh[0] ?? (yield* Effect.die(new Error("no domain")))
        const webhook = yield* storeWebhook(project.id, t0)
        expect(yield* webhooks.rotateSecret(other.id, webhook.id, t0)).toEqual(Option.none())
        expect(yield* webhooks.enable(other.id, webhook.id)).toEqual(Option.none())

        const rotated = Option.getOrThrow(
          yield* webhooks.rotateSecret(project.id, webhook.id, later(t0, hour))
        )
        expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
        expect(rotated.secret).not.toBe(webhook.secret)
        expect(encodeWebhook(rotated)).toEqual({
          ...encodeWebhook(webhook),
          secret: rotated.secret,
          previousSecret: webhook.secret,
          previousSecretUntil: later(t0, 25 * hour).toISOString()
        })
        expect(Option.map(yield* webhooks.find(project.id, webhook.id), encodeWebhook)).toEqual(
          Option.some(encodeWebhook(rotated))
        )
        // A second rotation drops the oldest: two secrets sign at most.
        const twice = Option.getOrThrow(
          yield* webhooks.rotateSecret(project.id, webhook.id, later(t0, 2 * hour))
        )
        expect([twice.previousSecret, twice.previousSecretUntil]).toEqual([
          rotated.secret,
          later(t0, 26 * hour)
        ])

        const holder = yield* freshHolder("rotation")
        yield* clockAt(later(t0, 3 * hour))
        yield* domains.insert(domain, roomyLimits)
        const during = yield* claimEvery(later(t0, 26 * hour - 1), holder)
        expect(during.map(({ secrets }) => secrets)).toEqual([[twice.secret, rotated.secret]])
        yield* clockAt(later(t0, 26 * hour))
        expect(Option.isSome(yield* domains.remove(project.id, domain.hostname))).toBe(true)
        const after = yield* claimEvery(later(t0, 26 * hour), holder)
        expect(after.map(({ secrets }) => secrets)).toEqual([[twice.secret]])
      }).pipe(Effect.provide(TestClock.layer()))
  )

  it.effect(
    "a result's health is written where the webhook is as claimed: disabled, it gets no new delivery and none is claimed, until enabled",
    () =>
      Effect.gen(function* () {
        const domains = yield* CustomDomainRepository
        const deliveries = yield* WebhookDeliveryRepository
        const webhooks = yield* WebhookRepository
        yield* drainDeliveries
        const { domains: fresh, project } = yield* projectWith(["subdomain", "subdomain"])
        const [d1, d2] = fresh
        if (d1 === undefined || d2 === undefined) return yield* Effect.die("no domains")
        const webhook = yield* storeWebhook(project.id, t0)
        const healthOf = Effect.map(webhooks.find(project.id, webhook.id), Option.map(webhookHealth))
        yield* clockAt(t0)
        yield* domains.insert(d1, roomyLimits)
        const holder = yield* freshHolder("health")
        const claimAt = (at: Date) => deliveries.claimDue(at, 10, { holder, until: later(at, hour) })

        // A failure starts the webhook's failures.
        const [first] = yield* claimAt(later(t0, second))
        if (first === undefined) return yield* Effect.die(new Error("not claimed"))
        expect(first.failingSince).toBeNull()
        yield* deliveries.complete(
          [attemptResult(first, "retrying", later(t0, second), later(t0, minute))],
          holder
        )
        expect(Option.getOrThrow(yield* healthOf)).toEqual({
          status: "enabled",
          disabledAt: null,
          disabledReason: null,
          failingSince: later(t0, second)
        })
        // A result that expected other failures (the owner enabled it meanwhile) stores the delivery,
        // not its health.
        const [secondTry] = yield* claimAt(later(t0, minute))
        if (secondTry === undefined) return yield* Effect.die(new Error("not claimed"))
        expect(secondTry.failingSince).toEqual(later(t0, second))
        const stale = attemptResult(secondTry, "retrying", later(t0, minute), later(t0, 2 * minute))
        const disabledAt = later(t0, minute)
        const staleResult = {
          ...stale,
          health: {
            expectedFailingSince: null,
            failingSince: disabledAt,
            disabled: { at: disabledAt, reason: "http_503" }
          }
        }
        expect(yield* deliveries.complete([staleResult], holder)).toHaveLength(1)
        expect(Option.getOrThrow(yield* healthOf).status).toBe("enabled")
        // The same, as claimed: disabled, with the reason.
        const [third] = yield* claimAt(later(t0, 2 * minute))
        if (third === undefined) return yield* Effect.die(new Error("not claimed"))
        const at = later(t0, 2 * minute)
        const disabling = {
          ...attemptResult(third, "retrying", at, later(t0, 3 * minute)),
          health: {
            expectedFailingSince: later(t0, second),
            failingSince: later(t0, second),
            disabled: { at, reason: "http_503" }
          }
        }
        expect(yield* deliveries.complete([disabling], holder)).toHaveLength(1)
        expect(Option.getOrThrow(yield* healthOf)).toEqual({
          status: "disabled",
          disabledAt: at,
          disabledReason: "http_503",
          failingSince: later(t0, second)
        })
        // Disabled: its pending delivery is not claimed, and a new event is owed nothing.
        yield* clockAt(later(t0, 4 * minute))
        yield* domains.insert(d2, roomyLimits)
        expect(yield* claimAt(later(t0, hour))).toEqual([])
        // Enabled again: failures forgotten, the pending delivery claimed; the new event was never owed.
        expect(Option.map(yield* webhooks.enable(project.id, webhook.id), webhookHealth)).toEqual(
          Option.some({ status: "enabled", disabledAt: null, disabledReason: null, failingSince: null })
        )
        const resumed = yield* claimEvery(later(t0, 2 * hour), holder)
        expect(resumed.map(({ event }) => event.hostname)).toEqual([d1.hostname])
      }).pipe(Effect.provide(TestClock.layer()))
  )
}

const webhookHealth = ({ disabledAt, disabledReason, failingSince, status }: Webhook) => ({
  status,
  disabledAt,
  disabledReason,
  failingSince
})
const encodeWebhook = (webhook: Webhook) => Schema.encodeSync(Webhook)(webhook)

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
