/**
 * The behaviour every WebhookRepository must have (with the domain store whose events are owed to the
 * webhooks, and the delivery queue those events fill), as a test suite run against each adapter: the
 * store makes each webhook's id and secret, lists a project's webhooks oldest first, finds and removes
 * them in their project only (a removed webhook's deliveries and attempts going with it), and lists
 * the attempts at a webhook newest first. Every test uses projects of its own and moves a TestClock of
 * its own. Claims see every due delivery of the store, so each test that claims first leases whatever
 * earlier tests left due to a holder of its own, for centuries (`drainDeliveries`).
 */
import { describe, expect, layer, type Vitest } from "@effect/vitest"
import { CustomDomainRepository } from "@petstore/domains"
import type { DomainEventType } from "@petstore/events"
import { LimitReached } from "@petstore/kernel"
import type { ProjectId } from "@petstore/projects"
import {
  type ClaimedDelivery,
  DeliveryAttempt,
  type DeliveryAttemptStatus,
  type DeliveryResult,
  healthAfterAttempt,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryRepository,
  type WebhookId,
  WebhookRepository
} from "@petstore/webhooks"
import { Array as Arr, Effect, type Layer, Option, Result, Schema } from "effect"
import { Base64 } from "effect/encoding"
import { TestClock } from "effect/testing"
import { later, randomToken, roomyLimits, t0 } from "./ContractFixtures.js"
import { type DomainStore, projectWith } from "./DomainRepositoryContract.js"

export type WebhookStore = DomainStore | WebhookRepository | WebhookDeliveryRepository

const second = 1_000
const minute = 60 * second
const hour = 60 * minute

/** Sets the test's clock: the writes that follow (and so their events) happen at `at`. */
export const clockAt = (at: Date) => TestClock.setTime(at.getTime())

/** A webhook of `projectId` to a URL of its own, sent the `events` given (null: every type). */
export const newWebhookOf = (projectId: ProjectId, events: ReadonlyArray<DomainEventType> | null = null) =>
  Effect.map(randomToken, (token) => ({
    projectId,
    url: `https://hooks.example.test/${token}?via=✓`,
    events
  }))

/** A limit no test of this suite reaches but its own. */
export const unlimited = 1_000

/** Stores a new webhook of `projectId`, created at `now`. */
export const storeWebhook = (
  projectId: ProjectId,
  now: Date,
  events: ReadonlyArray<DomainEventType> | null = null
) =>
  Effect.gen(function* () {
    const webhooks = yield* WebhookRepository
    return yield* webhooks.insert(yield* newWebhookOf(projectId, events), now, unlimited)
  })

const farFuture = new Date("2999-01-01T00:00:00.000Z")
const drainLease = { holder: "contract-drain-deliveries", until: new Date("3000-01-01T00:00:00.000Z") }

/** Leases every delivery due until the year 2999 away, so a claim test sees only its own deliveries. */
export const drainDeliveries = Effect.gen(function* () {
  const deliveries = yield* WebhookDeliveryRepository
  while ((yield* deliveries.claimDue(farFuture, 1_000, drainLease)).length > 0) {
    // Claimed away; look again until nothing is due.
  }
})

/** The delivery to `webhookId` of the event of `hostname` among those claimed; a defect when absent. */
export const claimedOf = (
  claimed: ReadonlyArray<ClaimedDelivery>,
  webhookId: WebhookId,
  hostname: string | undefined
): Effect.Effect<ClaimedDelivery> => {
  const found = claimed.find(
    ({ delivery, event }) => delivery.webhookId === webhookId && event.hostname === hostname
  )
  return found === undefined
    ? Effect.die(new Error(`no delivery to ${webhookId} of ${hostname} was claimed`))
    : Effect.succeed(found)
}

/**
 * Every delivery claimable at `now` and after it, lane by lane: each claim takes one delivery per
 * webhook, and each claimed is stored as delivered at `now`, which frees its lane for the next.
 */
export const claimEvery = (now: Date, holder: string) =>
  Effect.gen(function* () {
    const deliveries = yield* WebhookDeliveryRepository
    const all: Array<ClaimedDelivery> = []
    for (;;) {
      const claimed = yield* deliveries.claimDue(now, 100, { holder, until: later(now, hour) })
      if (claimed.length === 0) return all
      all.push(...claimed)
      yield* deliveries.complete(
        claimed.map((delivery) => attemptResult(delivery, "delivered", now)),
        holder
      )
    }
  })

export const freshHolder = (name: string) => Effect.map(randomToken, (token) => `${name}-${token}`)

/** A delivery's key as text, to compare claims as sets. */
export const deliveryText = (key: { readonly webhookId: WebhookId; readonly eventId: string }) =>
  `${key.webhookId} ${key.eventId}`

/** What a claim leased, as keys' text, in a stable order. */
export const claimedTexts = (claimed: ReadonlyArray<ClaimedDelivery>) =>
  claimed.map(({ delivery }) => deliveryText(delivery)).sort()

/**
 * The result of the next attempt at a claimed delivery, made at `at`: `delivered` (a 204), `retrying`
 * (a 503, the next attempt at `nextAttemptAt`) or `failed` (unreachable, the last attempt).
 */
export const attemptResult = (
  claimed: ClaimedDelivery,
  status: DeliveryAttemptStatus,
  at: Date,
  nextAttemptAt: Date = at
): DeliveryResult => {
  const { delivery } = claimed
  const attempt = delivery.attempts + 1
  const error = status === "delivered" ? null : status === "retrying" ? "http_503" : "connection_error"
  return {
    delivery: new WebhookDelivery({
      ...delivery,
      attempts: attempt,
      firstAttemptAt: delivery.firstAttemptAt ?? at,
      nextAttemptAt: status === "retrying" ? nextAttemptAt : delivery.nextAttemptAt,
      status: status === "retrying" ? "pending" : status
    }),
    attempt: new DeliveryAttempt({
      eventId: delivery.eventId,
      attempt,
      status,
      httpStatus: status === "delivered" ? 204 : status === "retrying" ? 503 : null,
      error,
      at
    }),
    health: healthAfterAttempt(claimed.failingSince, error, at, "72 hours")
  }
}

/** Every field, as plain values (dates as ISO strings): what two stores must agree on. */
const encodeWebhook = (webhook: Webhook) => Schema.encodeSync(Webhook)(webhook)
const encodeAttempt = (attempt: DeliveryAttempt) => Schema.encodeSync(DeliveryAttempt)(attempt)

const webhookIdPattern = /^wh_[a-z2-7]{26}$/
const secretPattern = /^whsec_[A-Za-z0-9+/]{43}=$/

/** The bytes a secret spells (after `whsec_`). */
const secretBytes = (secret: string): Uint8Array =>
  Result.getOrThrow(Base64.decode(secret.slice("whsec_".length)))

export const webhookRepositoryTests = (it: Vitest.MethodsNonLive<WebhookStore>): void => {
  it.effect(
    "insert makes an id and a secret of the domain's shapes, different every time, and keeps the rest",
    () =>
      Effect.gen(function* () {
        const webhooks = yield* WebhookRepository
        const { project } = yield* projectWith([])
        const now = later(t0, 5 * second)
        const asked = [
          yield* newWebhookOf(project.id, null),
          yield* newWebhookOf(project.id, ["domain.added", "certificate.renewal_failed"]),
          // Listens to nothing (yet): not the same as null, which is every type.
          yield* newWebhookOf(project.id, []),
          yield* newWebhookOf(project.id, null)
        ]
        const made: Array<Webhook> = []
        for (const webhook of asked) made.push(yield* webhooks.insert(webhook, now, unlimited))

        for (const [n, webhook] of made.entries()) {
          expect(webhook).toBeInstanceOf(Webhook)
          expect(webhook.id).toMatch(webhookIdPattern)
          expect(webhook.secret).toMatch(secretPattern)
          expect(secretBytes(webhook.secret)).toHaveLength(32)
          expect({ ...encodeWebhook(webhook), id: "", secret: "" }).toEqual({
            id: "",
            projectId: project.id,
            url: asked[n]?.url,
            events: asked[n]?.events,
            status: "enabled",
            disabledAt: null,
            disabledReason: null,
            secret: "",
            previousSecret: null,
            previousSecretUntil: null,
            failingSince: null,
            createdAt: now.toISOString()
          })
          expect(Option.map(yield* webhooks.find(project.id, webhook.id), encodeWebhook)).toEqual(
            Option.some(encodeWebhook(webhook))
          )
        }
        // Random, never repeated: ids and secrets all differ, even between webhooks alike.
        expect(new Set(made.map((webhook) => webhook.id)).size).toBe(made.length)
        expect(new Set(made.map((webhook) => webhook.secret)).size).toBe(made.length)
        expect(new Set(made.map((webhook) => Base64.encode(secretBytes(webhook.secret)))).size).toBe(
          made.length
        )
      })
  )

  it.effect(
    "listByProject lists the project's webhooks oldest first; find finds one in its project only",
    () =>
      Effect.gen(function* () {
        const webhooks = yield* WebhookRepository
        const { project } = yield* projectWith([])
        const { project: other } = yield* projectWith([], project.account)
        const { project: empty } = yield* projectWith([])
        // Stored later but created earlier: the order they were stored in is the order listed.
        const first = yield* storeWebhook(project.id, later(t0, hour))
        const theirs = yield* storeWebhook(other.id, later(t0, hour))
        const second_ = yield* storeWebhook(project.id, t0, ["domain.verified"])
        const third = yield* storeWebhook(project.id, later(t0, hour))

        expect((yield* webhooks.listByProject(project.id)).map(encodeWebhook)).toEqual(
          [first, second_, third].map(encodeWebhook)
        )
        expect((yield* webhooks.listByProject(other.id)).map(encodeWebhook)).toEqual([encodeWebhook(theirs)])
        expect(yield* webhooks.listByProject(empty.id)).toEqual([])
        // Another project's webhook, even of the same account, is not found through this one.
        expect(yield* webhooks.find(project.id, theirs.id)).toEqual(Option.none())
        expect(yield* webhooks.find(other.id, first.id)).toEqual(Option.none())
        const unknown = (yield* storeWebhook(empty.id, t0)).id
        expect(yield* webhooks.remove(empty.id, unknown)).toBe(true)
        expect(yield* webhooks.find(empty.id, unknown)).toEqual(Option.none())
      })
  )

  it.effect(
    "remove forgets the webhook with its deliveries and attempts, in its project only; a late result stores nothing",
    () =>
      Effect.gen(function* () {
        const webhooks = yield* WebhookRepository
        const deliveries = yield* WebhookDeliveryRepository
        const domains = yield* CustomDomainRepository
        yield* drainDeliveries
        const { domains: fresh, project } = yield* projectWith(["subdomain"])
        const { project: other } = yield* projectWith([], project.account)
        const domain = fresh[0] ?? (yield* Effect.die(new Error("no domain")))
        const removed = yield* storeWebhook(project.id, t0)
        const kept = yield* storeWebhook(project.id, t0)
        yield* clockAt(later(t0, second))
        yield* domains.insert(domain, roomyLimits)

        // A first attempt at each is recorded; the removed one's is being retried when it goes.
        const holder = yield* freshHolder("remove")
        const claimed = yield* deliveries.claimDue(later(t0, minute), 100, {
          holder,
          until: later(t0, hour)
        })
        expect(claimed.map(({ delivery }) => delivery.webhookId).sort()).toEqual([removed.id, kept.id].sort())
        const results = claimed.map((delivery) =>
          attemptResult(delivery, "retrying", later(t0, 2 * minute), later(t0, 3 * minute))
        )
        expect(yield* deliveries.complete(results, holder)).toHaveLength(2)
        const retry = yield* deliveries.claimDue(later(t0, 3 * minute), 100, {
          holder,
          until: later(t0, hour)
        })
        expect(retry).toHaveLength(2)
        expect((yield* webhooks.listAttempts(project.id, removed.id, 10)).length).toBe(1)

        // Not through another project, even of the same account.
        expect(yield* webhooks.remove(other.id, removed.id)).toBe(false)
        expect(Option.isSome(yield* webhooks.find(project.id, removed.id))).toBe(true)

        expect(yield* webhooks.remove(project.id, removed.id)).toBe(true)
        expect(yield* webhooks.find(project.id, removed.id)).toEqual(Option.none())
        expect((yield* webhooks.listByProject(project.id)).map((webhook) => webhook.id)).toEqual([kept.id])
        expect(yield* webhooks.listAttempts(project.id, removed.id, 10)).toEqual([])
        expect(yield* webhooks.remove(project.id, removed.id)).toBe(false)

        // The worker's late result for the removed webhook stores nothing; the kept one's is stored.
        const late = retry.map((delivery) => attemptResult(delivery, "delivered", later(t0, 4 * minute)))
        expect((yield* deliveries.complete(late, holder)).map(deliveryText)).toEqual(
          retry
            .filter(({ delivery }) => delivery.webhookId === kept.id)
            .map(({ delivery }) => deliveryText(delivery))
        )
        expect(yield* webhooks.listAttempts(project.id, removed.id, 10)).toEqual([])
        expect(
          (yield* webhooks.listAttempts(project.id, kept.id, 10)).map((attempt) => attempt.status)
        ).toEqual(["delivered", "retrying"])
        // Later events are owed to the kept webhook alone, and nothing of the removed one is due.
        yield* clockAt(later(t0, 5 * minute))
        expect(Option.isSome(yield* domains.remove(project.id, domain.hostname))).toBe(true)
        const after = yield* deliveries.claimDue(later(t0, 2 * hour), 100, {
          holder,
          until: later(t0, 3 * hour)
        })
        expect(after.map(({ delivery, event }) => [delivery.webhookId, event.type])).toEqual([
          [kept.id, "domain.removed"]
        ])
      }).pipe(Effect.provide(TestClock.layer()))
  )

  it.effect(
    "listAttempts gives the latest attempts newest first, at most the limit, of the project's webhook",
    () =>
      Effect.gen(function* () {
        const webhooks = yield* WebhookRepository
        const deliveries = yield* WebhookDeliveryRepository
        const domains = yield* CustomDomainRepository
        yield* drainDeliveries
        const { domains: fresh, project } = yield* projectWith(["subdomain", "apex"])
        const { project: other } = yield* projectWith([], project.account)
        const webhook = yield* storeWebhook(project.id, t0)
        const quiet = yield* storeWebhook(project.id, t0)
        yield* clockAt(later(t0, second))
        for (const domain of fresh) yield* domains.insert(domain, roomyLimits)
        expect(yield* webhooks.listAttempts(project.id, webhook.id, 10)).toEqual([])

        const holder = yield* freshHolder("attempts")
        const lease = (at: Date) => ({ holder, until: later(at, hour) })
        /** Claims what is due at `at`: the webhook's one delivery of `hostname` (its lane takes one at a time). */
        const claimOf = (at: Date, hostname: string | undefined) =>
          Effect.flatMap(deliveries.claimDue(at, 100, lease(at)), (claimed) =>
            claimedOf(claimed, webhook.id, hostname)
          )
        const [first, second_] = [fresh[0]?.hostname, fresh[1]?.hostname]
        const at = (minutes: number) => later(t0, minutes * minute)
        const a1 = yield* claimOf(at(1), first)
        const resultA1 = attemptResult(a1, "retrying", at(1), at(2))
        expect(yield* deliveries.complete([resultA1], holder)).toHaveLength(1)
        const b1 = yield* claimOf(at(1), second_)
        const resultB1 = attemptResult(b1, "retrying", at(2), at(2))
        expect(yield* deliveries.complete([resultB1], holder)).toHaveLength(1)
        const a2 = yield* claimOf(at(3), first)
        const resultA2 = attemptResult(a2, "retrying", at(3), at(4))
        expect(yield* deliveries.complete([resultA2], holder)).toHaveLength(1)
        const b2 = yield* claimOf(at(3), second_)
        // Two attempts at the same instant: the one recorded last is the newer.
        const resultB2 = attemptResult(b2, "delivered", at(4))
        expect(yield* deliveries.complete([resultB2], holder)).toHaveLength(1)
        const a3 = yield* claimOf(at(4), first)
        const resultA3 = attemptResult(a3, "failed", at(4))
        expect(yield* deliveries.complete([resultA3], holder)).toHaveLength(1)

        const newestFirst = [resultA3, resultB2, resultA2, resultB1, resultA1].map(({ attempt }) =>
          encodeAttempt(attempt)
        )
        const listed = yield* webhooks.listAttempts(project.id, webhook.id, 100)
        for (const attempt of listed) expect(attempt).toBeInstanceOf(DeliveryAttempt)
        expect(listed.map(encodeAttempt)).toEqual(newestFirst)
        expect(newestFirst.map(({ attempt, status }) => [attempt, status])).toEqual([
          [3, "failed"],
          [2, "delivered"],
          [2, "retrying"],
          [1, "retrying"],
          [1, "retrying"]
        ])
        expect((yield* webhooks.listAttempts(project.id, webhook.id, 2)).map(encodeAttempt)).toEqual(
          newestFirst.slice(0, 2)
        )
        expect(yield* webhooks.listAttempts(project.id, webhook.id, 0)).toEqual([])
        // Another webhook's attempts are its own; another project sees none of this one's.
        expect(yield* webhooks.listAttempts(project.id, quiet.id, 100)).toEqual([])
        expect(yield* webhooks.listAttempts(other.id, webhook.id, 100)).toEqual([])
      }).pipe(Effect.provide(TestClock.layer()))
  )
  it.effect(
    "insert counts the project's webhooks: past the limit it is LimitReached naming it; 15 at once at 10 make exactly 10",
    () =>
      Effect.gen(function* () {
        const webhooks = yield* WebhookRepository
        const { project } = yield* projectWith([])
        const { project: other } = yield* projectWith([], project.account)
        const tries = yield* Effect.forEach(Arr.range(1, 15), () => newWebhookOf(project.id))
        const outcomes = yield* Effect.forEach(
          tries,
          (webhook) => Effect.result(webhooks.insert(webhook, t0, 10)),
          { concurrency: "unbounded" }
        )
        const made = outcomes.filter(Result.isSuccess)
        const refused = outcomes.filter(Result.isFailure).map((outcome) => outcome.failure)
        expect(made).toHaveLength(10)
        expect(refused).toHaveLength(5)
        for (const error of refused) {
          expect(error).toBeInstanceOf(LimitReached)
          expect(error).toMatchObject({ limit: "webhooks per project", value: 10 })
        }
        expect(yield* webhooks.listByProject(project.id)).toHaveLength(10)
        // Another project of the account counts its own; a removal makes room again.
        expect((yield* Effect.result(webhooks.insert(yield* newWebhookOf(other.id), t0, 1)))._tag).toBe(
          "Success"
        )
        expect((yield* Effect.result(webhooks.insert(yield* newWebhookOf(other.id), t0, 1)))._tag).toBe(
          "Failure"
        )
        const [first] = yield* webhooks.listByProject(project.id)
        if (first === undefined) return yield* Effect.die(new Error("no webhook"))
        expect(yield* webhooks.remove(project.id, first.id)).toBe(true)
        expect((yield* Effect.result(webhooks.insert(yield* newWebhookOf(project.id), t0, 10)))._tag).toBe(
          "Success"
        )
        expect((yield* Effect.result(webhooks.insert(yield* newWebhookOf(project.id), t0, 10)))._tag).toBe(
          "Failure"
        )
      })
  )
}

/** Runs the suite against one fresh store built from `store`. */
export const webhookRepositoryContract = <E>(
  name: string,
  store: Layer.Layer<WebhookStore, E>,
  options: { readonly timeout?: number } = {}
): void =>
  layer(store, {
    excludeTestServices: true,
    ...(options.timeout === undefined ? {} : { timeout: options.timeout })
  })(name, (it) => describe("WebhookRepository", () => webhookRepositoryTests(it)))
