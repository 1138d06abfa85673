/**
 * The worker's webhook deliveries (`WebhookDeliveries`), over in-memory ports: what each outcome of a
 * request makes of the attempt and of the delivery, and the round around them: results stored only
 * while their lease holds, leases given back when the round stops or cannot store, bounded
 * concurrency, and the same `webhook-id` on every attempt at an event.
 */
import { describe, expect, it } from "@effect/vitest"
import { Hostname } from "@petstore/domains"
import { DomainEvent, DomainEventId } from "@petstore/events"
import { ProjectId } from "@petstore/projects"
import {
  DeliveryAttempt,
  deliverDueWebhooks,
  recordOutcome,
  type SendOutcome,
  type Webhook,
  WebhookDelivery,
  type WebhookDeliveryKey,
  WebhookRepository,
  webhookIdFrom
} from "@petstore/webhooks"
import { Deferred, Effect, Fiber, Option, Schema } from "effect"
import { TestClock } from "effect/testing"
import { hour, minute, nowDate, second, t0 } from "./support/UseCases.js"
import { addedEvent, WebhookWorld, webhookWorld } from "./support/WebhookWorld.js"

const options = {
  holder: "worker-1",
  batchSize: 10,
  lease: "1 minute",
  retryBase: "5 seconds",
  disableAfter: "72 hours"
} as const
const hookUrl = "https://hooks.example.com/petstore"
const at = (millis: number) => new Date(t0 + millis)

describe("recordOutcome", () => {
  const pending = new WebhookDelivery({
    webhookId: webhookIdFrom(new Uint8Array(17)),
    eventId: DomainEventId.make("42"),
    hostname: Hostname.make("docs.example.com"),
    attempts: 0,
    firstAttemptAt: null,
    nextAttemptAt: at(0),
    status: "pending"
  })
  const retry = { base: "5 seconds", random: 0.5, failingSince: null, disableAfter: "72 hours" } as const

  it("marks a 2xx delivered, on the first attempt", () => {
    expect(recordOutcome(pending, { _tag: "Delivered", status: 200 }, at(0), retry)).toStrictEqual({
      delivery: new WebhookDelivery({ ...pending, attempts: 1, firstAttemptAt: at(0), status: "delivered" }),
      attempt: new DeliveryAttempt({
        eventId: pending.eventId,
        attempt: 1,
        status: "delivered",
        httpStatus: 200,
        error: null,
        at: at(0)
      }),
      health: { expectedFailingSince: null, failingSince: null, disabled: null }
    })
  })

  it.each<readonly [SendOutcome, number | null, string]>([
    [{ _tag: "Rejected", status: 503 }, 503, "http_503"],
    [{ _tag: "Rejected", status: 301 }, 301, "http_301"],
    [{ _tag: "Rejected", status: 404 }, 404, "http_404"],
    [{ _tag: "Unreachable", reason: "timeout" }, null, "timeout"],
    [{ _tag: "Unreachable", reason: "refused_address" }, null, "refused_address"],
    [{ _tag: "Unreachable", reason: "dns_error" }, null, "dns_error"],
    [{ _tag: "Unreachable", reason: "tls_error" }, null, "tls_error"],
    [{ _tag: "Unreachable", reason: "connection_error" }, null, "connection_error"]
  ])("retries after %j, saying why with a generic reason", (outcome, httpStatus, error) => {
    const first = recordOutcome(pending, outcome, at(0), retry)
    expect(first).toStrictEqual({
      delivery: new WebhookDelivery({
        ...pending,
        attempts: 1,
        firstAttemptAt: at(0),
        nextAttemptAt: at(5 * second)
      }),
      attempt: new DeliveryAttempt({
        eventId: pending.eventId,
        attempt: 1,
        status: "retrying",
        httpStatus,
        error,
        at: at(0)
      }),
      health: { expectedFailingSince: null, failingSince: at(0), disabled: null }
    })
    // The second failure doubles the wait, and the 24 hours still count from the first attempt.
    const second_ = recordOutcome(first.delivery, outcome, at(6 * second), retry)
    expect(second_.delivery).toStrictEqual(
      new WebhookDelivery({ ...first.delivery, attempts: 2, nextAttemptAt: at(16 * second) })
    )
    expect(second_.attempt.attempt).toBe(2)
    expect(second_.attempt.status).toBe("retrying")
  })

  it("fails the delivery when the next attempt would start more than 24 hours after the first", () => {
    const late = new WebhookDelivery({
      ...pending,
      attempts: 30,
      firstAttemptAt: at(0),
      nextAttemptAt: at(23 * hour)
    })
    const lastChance = recordOutcome(late, { _tag: "Rejected", status: 500 }, at(23 * hour), retry)
    expect(lastChance.delivery.status).toBe("pending")
    expect(lastChance.delivery.nextAttemptAt).toStrictEqual(at(24 * hour))
    const given = recordOutcome(lastChance.delivery, { _tag: "Rejected", status: 500 }, at(24 * hour), retry)
    expect(given).toStrictEqual({
      delivery: new WebhookDelivery({ ...lastChance.delivery, attempts: 32, status: "failed" }),
      attempt: new DeliveryAttempt({
        eventId: pending.eventId,
        attempt: 32,
        status: "failed",
        httpStatus: 500,
        error: "http_500",
        at: at(24 * hour)
      }),
      health: { expectedFailingSince: null, failingSince: at(24 * hour), disabled: null }
    })
  })

  it("disables the webhook once every attempt failed for the disabling period, with the last reason", () => {
    const failing = { ...retry, failingSince: at(0) }
    const before = recordOutcome(
      pending,
      { _tag: "Unreachable", reason: "timeout" },
      at(72 * hour - 1),
      failing
    )
    expect(before.health).toStrictEqual({ expectedFailingSince: at(0), failingSince: at(0), disabled: null })
    const after = recordOutcome(pending, { _tag: "Rejected", status: 410 }, at(72 * hour), failing)
    expect(after.health).toStrictEqual({
      expectedFailingSince: at(0),
      failingSince: at(0),
      disabled: { at: at(72 * hour), reason: "http_410" }
    })
    // A success ends the failures, however long they lasted.
    const saved = recordOutcome(pending, { _tag: "Delivered", status: 200 }, at(100 * hour), failing)
    expect(saved.health).toStrictEqual({ expectedFailingSince: at(0), failingSince: null, disabled: null })
  })

  it("still marks a late success delivered", () => {
    const late = new WebhookDelivery({
      ...pending,
      attempts: 32,
      firstAttemptAt: at(0),
      nextAttemptAt: at(24 * hour)
    })
    const done = recordOutcome(late, { _tag: "Delivered", status: 204 }, at(24 * hour), retry)
    expect(done.delivery.status).toBe("delivered")
    expect(done.attempt).toMatchObject({ attempt: 33, status: "delivered", httpStatus: 204, error: null })
  })
})

/** A webhook of handbook at `url`, and `count` events of distinct hostnames queued for it at the clock's time. */
const queued = (count: number, url = hookUrl) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(t0)
    const hooks = yield* WebhookWorld
    const webhooks = yield* WebhookRepository
    const webhook = yield* webhooks.insert(
      { projectId: ProjectId.make("handbook"), url, events: null },
      yield* nowDate,
      10
    )
    const deliveries: Array<WebhookDelivery> = []
    for (let n = 1; n <= count; n++) {
      const event = addedEvent(n, `docs${n}.example.com`, "handbook", yield* nowDate)
      deliveries.push(yield* hooks.enqueue(webhook, event, event.occurredAt))
    }
    return { hooks, webhook, deliveries }
  })

/** `count` webhooks of handbook, each with one event of its own queued at the clock's time. */
const queuedAcross = (count: number) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(t0)
    const hooks = yield* WebhookWorld
    const webhooks = yield* WebhookRepository
    const deliveries: Array<WebhookDelivery> = []
    for (let n = 1; n <= count; n++) {
      const webhook = yield* webhooks.insert(
        { projectId: ProjectId.make("handbook"), url: `${hookUrl}/${n}`, events: null },
        yield* nowDate,
        10
      )
      const event = addedEvent(n, `docs${n}.example.com`, "handbook", yield* nowDate)
      deliveries.push(yield* hooks.enqueue(webhook, event, event.occurredAt))
    }
    return { hooks, deliveries }
  })

const stored = (key: WebhookDeliveryKey) =>
  Effect.flatMap(WebhookWorld, (hooks) =>
    Effect.map(hooks.storedDelivery(key), (found) => Option.getOrThrow(found))
  )

describe("deliverDueWebhooks", () => {
  it.effect(
    "sends a due delivery signed with its webhook's secret, the event as JSON, and marks it delivered",
    () =>
      Effect.gen(function* () {
        const { hooks, webhook, deliveries } = yield* queued(1)
        const [delivery] = deliveries
        if (delivery === undefined) return expect.unreachable()
        const leases: Array<unknown> = []
        yield* hooks.whileSending(() =>
          Effect.flatMap(hooks.leaseOf(delivery), (lease) => Effect.sync(() => leases.push(lease)))
        )
        yield* hooks.answer(hookUrl, { _tag: "Delivered", status: 200 })
        const round = yield* deliverDueWebhooks(options)
        expect(round).toStrictEqual({ claimed: 1, completed: 1, abandoned: 0 })
        expect(leases).toStrictEqual([{ holder: "worker-1", until: at(minute) }])
        const [request] = yield* hooks.sent
        expect(request).toMatchObject({
          url: hookUrl,
          webhookId: "1",
          timestamp: at(0),
          secrets: [webhook.secret]
        })
        const event = addedEvent(1, "docs1.example.com", "handbook", at(0))
        expect(JSON.parse(request?.body ?? "null")).toStrictEqual(Schema.encodeSync(DomainEvent)(event))
        expect(yield* stored(delivery)).toStrictEqual(
          new WebhookDelivery({ ...delivery, attempts: 1, firstAttemptAt: at(0), status: "delivered" })
        )
        expect(yield* hooks.leaseOf(delivery)).toBeNull()
        expect(yield* hooks.attempts).toStrictEqual([
          {
            webhookId: webhook.id,
            attempt: new DeliveryAttempt({
              eventId: delivery.eventId,
              attempt: 1,
              status: "delivered",
              httpStatus: 200,
              error: null,
              at: at(0)
            })
          }
        ])
        // Delivered is done: nothing is sent again, however late.
        yield* TestClock.adjust("25 hours")
        expect(yield* deliverDueWebhooks(options)).toStrictEqual({ claimed: 0, completed: 0, abandoned: 0 })
        expect(yield* hooks.sent).toHaveLength(1)
      }).pipe(Effect.provide(webhookWorld))
  )

  it.effect(
    "retries a rejected delivery after the base ±20%, with the same webhook-id, until it is delivered",
    () =>
      Effect.gen(function* () {
        const { hooks, webhook, deliveries } = yield* queued(1)
        const [delivery] = deliveries
        if (delivery === undefined) return expect.unreachable()
        yield* hooks.answer(hookUrl, { _tag: "Rejected", status: 503 }, { _tag: "Delivered", status: 204 })
        expect(yield* deliverDueWebhooks(options)).toStrictEqual({ claimed: 1, completed: 1, abandoned: 0 })
        const retrying = yield* stored(delivery)
        expect(retrying).toMatchObject({ status: "pending", attempts: 1, firstAttemptAt: at(0) })
        const wait = retrying.nextAttemptAt.getTime() - t0
        expect(wait).toBeGreaterThanOrEqual(4 * second)
        expect(wait).toBeLessThanOrEqual(6 * second)
        // Not due yet: the next round sends nothing.
        yield* TestClock.setTime(retrying.nextAttemptAt.getTime() - 1)
        expect(yield* deliverDueWebhooks(options)).toStrictEqual({ claimed: 0, completed: 0, abandoned: 0 })
        yield* TestClock.setTime(retrying.nextAttemptAt.getTime())
        expect(yield* deliverDueWebhooks(options)).toStrictEqual({ claimed: 1, completed: 1, abandoned: 0 })
        expect(yield* stored(delivery)).toMatchObject({
          status: "delivered",
          attempts: 2,
          firstAttemptAt: at(0)
        })
        const requests = yield* hooks.sent
        expect(requests.map((request) => request.webhookId)).toStrictEqual(["1", "1"])
        expect(requests.map((request) => request.timestamp)).toStrictEqual([at(0), retrying.nextAttemptAt])
        expect(requests[0]?.body).toBe(requests[1]?.body)
        expect((yield* hooks.attempts).map(({ webhookId, attempt }) => [webhookId, attempt])).toStrictEqual([
          [
            webhook.id,
            new DeliveryAttempt({
              eventId: delivery.eventId,
              attempt: 1,
              status: "retrying",
              httpStatus: 503,
              error: "http_503",
              at: at(0)
            })
          ],
          [
            webhook.id,
            new DeliveryAttempt({
              eventId: delivery.eventId,
              attempt: 2,
              status: "delivered",
              httpStatus: 204,
              error: null,
              at: retrying.nextAttemptAt
            })
          ]
        ])
      }).pipe(Effect.provide(webhookWorld))
  )

  it.effect("records a refused address as a failed attempt that says so, and tries again later", () =>
    Effect.gen(function* () {
      const { hooks, deliveries } = yield* queued(1)
      const [delivery] = deliveries
      if (delivery === undefined) return expect.unreachable()
      const reason = "refused_address"
      yield* hooks.answer(hookUrl, { _tag: "Unreachable", reason })
      yield* deliverDueWebhooks(options)
      expect(yield* stored(delivery)).toMatchObject({ status: "pending", attempts: 1 })
      expect((yield* hooks.attempts).map(({ attempt }) => attempt)).toStrictEqual([
        new DeliveryAttempt({
          eventId: delivery.eventId,
          attempt: 1,
          status: "retrying",
          httpStatus: null,
          error: reason,
          at: at(0)
        })
      ])
    }).pipe(Effect.provide(webhookWorld))
  )

  it.effect("gives a delivery up once its next attempt would start past 24 hours after the first", () =>
    Effect.gen(function* () {
      const { hooks, deliveries } = yield* queued(1)
      const [queuedDelivery] = deliveries
      if (queuedDelivery === undefined) return expect.unreachable()
      const delivery = new WebhookDelivery({
        ...queuedDelivery,
        attempts: 32,
        firstAttemptAt: at(-(23 * hour + 30 * minute)),
        nextAttemptAt: at(0)
      })
      yield* hooks.putDelivery(delivery)
      yield* hooks.answer(hookUrl, { _tag: "Unreachable", reason: "connection_error" })
      expect(yield* deliverDueWebhooks(options)).toStrictEqual({ claimed: 1, completed: 1, abandoned: 0 })
      expect(yield* stored(delivery)).toStrictEqual(
        new WebhookDelivery({ ...delivery, attempts: 33, status: "failed" })
      )
      expect((yield* hooks.attempts).map(({ attempt }) => attempt)).toStrictEqual([
        new DeliveryAttempt({
          eventId: delivery.eventId,
          attempt: 33,
          status: "failed",
          httpStatus: null,
          error: "connection_error",
          at: at(0)
        })
      ])
      yield* TestClock.adjust("2 hours")
      expect(yield* deliverDueWebhooks(options)).toStrictEqual({ claimed: 0, completed: 0, abandoned: 0 })
    }).pipe(Effect.provide(webhookWorld))
  )

  it.effect("stores nothing of a delivery whose lease another worker took over meanwhile", () =>
    Effect.gen(function* () {
      const { hooks, deliveries } = yield* queued(1)
      const [delivery] = deliveries
      if (delivery === undefined) return expect.unreachable()
      yield* hooks.whileSending(() => hooks.stealLease(delivery, "worker-2"))
      expect(yield* deliverDueWebhooks(options)).toStrictEqual({ claimed: 1, completed: 0, abandoned: 1 })
      expect(yield* stored(delivery)).toStrictEqual(delivery)
      expect(yield* hooks.attempts).toStrictEqual([])
      expect((yield* hooks.leaseOf(delivery))?.holder).toBe("worker-2")
    }).pipe(Effect.provide(webhookWorld))
  )

  it.effect(
    "gives every lease back when stopped mid-send, so the next pass sends again with the same id",
    () =>
      Effect.gen(function* () {
        const { hooks, deliveries } = yield* queuedAcross(3)
        const inFlight = yield* Deferred.make<void>()
        yield* hooks.whileSending(() => Effect.andThen(Deferred.succeed(inFlight, undefined), Effect.never))
        const pass = yield* Effect.forkChild(deliverDueWebhooks(options))
        yield* Deferred.await(inFlight)
        yield* Fiber.interrupt(pass)
        for (const delivery of deliveries) {
          expect(yield* hooks.leaseOf(delivery)).toBeNull()
          expect(yield* stored(delivery)).toStrictEqual(delivery)
        }
        expect(yield* hooks.releases).toHaveLength(3)
        expect(yield* hooks.attempts).toStrictEqual([])
        yield* hooks.whileSending(() => Effect.void)
        expect(yield* deliverDueWebhooks(options)).toStrictEqual({ claimed: 3, completed: 3, abandoned: 0 })
        const ids = (yield* hooks.sent).map((request) => request.webhookId)
        expect(ids.slice(-3).sort()).toStrictEqual(["1", "2", "3"])
      }).pipe(Effect.provide(webhookWorld))
  )

  it.effect("takes one delivery of a webhook at a time: its lane is busy while one is leased", () =>
    Effect.gen(function* () {
      const { hooks, deliveries } = yield* queued(3)
      for (const n of [1, 2, 3]) {
        expect(yield* deliverDueWebhooks(options)).toStrictEqual({ claimed: 1, completed: 1, abandoned: 0 })
        expect(yield* hooks.mostInFlight).toBe(1)
        expect(deliveries.filter((delivery) => delivery !== undefined)).toHaveLength(3)
        expect((yield* hooks.sent).length).toBe(n)
      }
      for (const delivery of deliveries) expect((yield* stored(delivery)).status).toBe("delivered")
      // While one is in flight, a second pass finds the lane busy.
      const more = yield* queued(2)
      const inFlight = yield* Deferred.make<void>()
      const answered = yield* Deferred.make<void>()
      yield* more.hooks.whileSending(() =>
        Effect.andThen(Deferred.succeed(inFlight, undefined), Deferred.await(answered))
      )
      const pass = yield* Effect.forkChild(deliverDueWebhooks(options))
      yield* Deferred.await(inFlight)
      yield* more.hooks.whileSending(() => Effect.void)
      expect(yield* deliverDueWebhooks(options)).toStrictEqual({ claimed: 0, completed: 0, abandoned: 0 })
      yield* Deferred.succeed(answered, undefined)
      expect(yield* Fiber.join(pass)).toStrictEqual({ claimed: 1, completed: 1, abandoned: 0 })
    }).pipe(Effect.provide(webhookWorld))
  )

  it.effect("claims at most a batch per pass", () =>
    Effect.gen(function* () {
      yield* queuedAcross(4)
      expect(yield* deliverDueWebhooks({ ...options, batchSize: 3 })).toStrictEqual({
        claimed: 3,
        completed: 3,
        abandoned: 0
      })
      expect(yield* deliverDueWebhooks({ ...options, batchSize: 3 })).toStrictEqual({
        claimed: 1,
        completed: 1,
        abandoned: 0
      })
    }).pipe(Effect.provide(webhookWorld))
  )

  it.effect("stores each result alone: a write that fails gives back only its own lease", () =>
    Effect.gen(function* () {
      const { hooks, deliveries } = yield* queuedAcross(2)
      const [first, second_] = deliveries
      if (first === undefined || second_ === undefined) return expect.unreachable()
      yield* hooks.failCompletionOf(second_.eventId)
      expect(yield* deliverDueWebhooks(options)).toStrictEqual({ claimed: 2, completed: 1, abandoned: 1 })
      expect((yield* stored(first)).status).toBe("delivered")
      expect(yield* stored(second_)).toStrictEqual(second_)
      expect(yield* hooks.leaseOf(second_)).toBeNull()
      expect(yield* hooks.releases).toStrictEqual([`${second_.webhookId} ${second_.eventId}`])
    }).pipe(Effect.provide(webhookWorld))
  )

  it.effect(
    "disables a webhook whose every delivery failed for the disabling period; it gets nothing more",
    () =>
      Effect.gen(function* () {
        const { hooks, webhook, deliveries } = yield* queued(1)
        const [delivery] = deliveries
        if (delivery === undefined) return expect.unreachable()
        const webhooks = yield* WebhookRepository
        const short = { ...options, disableAfter: "1 minute" } as const
        const statusOf = Effect.map(webhooks.find(webhook.projectId, webhook.id), (found) =>
          Option.map(found, ({ disabledAt, disabledReason, failingSince, status }) => ({
            status,
            disabledAt,
            disabledReason,
            failingSince
          }))
        )
        yield* hooks.answer(
          hookUrl,
          ...Array.from({ length: 20 }, (): SendOutcome => ({ _tag: "Unreachable", reason: "timeout" }))
        )
        yield* hooks.answer(hookUrl, { _tag: "Rejected", status: 502 })
        // Attempts at 0 s, ~5 s, ~15 s, ~35 s: failing, not yet for a minute.
        let disabledAt: Date | null = null
        while (disabledAt === null) {
          const next = (yield* stored(delivery)).nextAttemptAt
          yield* TestClock.setTime(next.getTime())
          expect(yield* deliverDueWebhooks(short)).toMatchObject({ claimed: 1, completed: 1 })
          const now = yield* statusOf
          const state = Option.getOrThrow(now)
          expect(state.failingSince).toStrictEqual(at(0))
          if (state.status === "disabled") disabledAt = state.disabledAt
          else expect(next.getTime() - t0).toBeLessThan(minute)
        }
        // The attempt that disabled it is the first at or after a minute of failures, with its own reason.
        expect(disabledAt.getTime() - t0).toBeGreaterThanOrEqual(minute)
        expect(Option.getOrThrow(yield* statusOf).disabledReason).toMatch(/^(timeout|http_502)$/)
        // Disabled: its pending delivery is not claimed, however late.
        yield* TestClock.adjust("2 hours")
        expect(yield* deliverDueWebhooks(short)).toStrictEqual({ claimed: 0, completed: 0, abandoned: 0 })
        // Enabled again by its owner: delivering as if nothing had failed yet.
        expect(Option.getOrThrow(yield* webhooks.enable(webhook.projectId, webhook.id))).toMatchObject({
          status: "enabled",
          disabledAt: null,
          disabledReason: null,
          failingSince: null
        })
        expect((yield* deliverDueWebhooks(short)).claimed).toBe(1)
      }).pipe(Effect.provide(webhookWorld))
  )

  it.effect("signs with both secrets for 24 hours after a rotation, then with the new one only", () =>
    Effect.gen(function* () {
      const { hooks, webhook } = yield* queued(0)
      const webhooks = yield* WebhookRepository
      const rotated = Option.getOrThrow(yield* webhooks.rotateSecret(webhook.projectId, webhook.id, at(0)))
      expect(rotated.secret).not.toBe(webhook.secret)
      expect(rotated.previousSecret).toBe(webhook.secret)
      expect(rotated.previousSecretUntil).toStrictEqual(at(24 * hour))
      yield* hooks.enqueue(rotated, addedEvent(1, "docs1.example.com", "handbook", at(0)), at(0))
      yield* deliverDueWebhooks(options)
      yield* TestClock.setTime(t0 + 24 * hour - 1)
      yield* hooks.enqueue(rotated, addedEvent(2, "docs2.example.com", "handbook", at(0)), at(0))
      yield* deliverDueWebhooks(options)
      yield* TestClock.setTime(t0 + 24 * hour)
      yield* hooks.enqueue(rotated, addedEvent(3, "docs3.example.com", "handbook", at(0)), at(0))
      yield* deliverDueWebhooks(options)
      expect((yield* hooks.sent).map((request) => request.secrets)).toStrictEqual([
        [rotated.secret, webhook.secret],
        [rotated.secret, webhook.secret],
        [rotated.secret]
      ])
    }).pipe(Effect.provide(webhookWorld))
  )

  it.effect("sends each webhook its own deliveries of the same event", () =>
    Effect.gen(function* () {
      const { hooks } = yield* queued(0)
      const webhooks = yield* WebhookRepository
      const handbook = ProjectId.make("handbook")
      const one: Webhook = yield* webhooks.insert(
        { projectId: handbook, url: hookUrl, events: null },
        at(0),
        10
      )
      const two: Webhook = yield* webhooks.insert(
        { projectId: handbook, url: "https://other.example.com/", events: null },
        at(0),
        10
      )
      const event = addedEvent(7, "docs.example.com", "handbook", at(0))
      const toOne = yield* hooks.enqueue(one, event, at(0))
      const toTwo = yield* hooks.enqueue(two, event, at(0))
      yield* hooks.answer("https://other.example.com/", { _tag: "Rejected", status: 410 })
      yield* deliverDueWebhooks(options)
      const requests = yield* hooks.sent
      expect(requests.map((request) => [request.url, request.secrets]).sort()).toStrictEqual(
        [
          [hookUrl, [one.secret]],
          ["https://other.example.com/", [two.secret]]
        ].sort()
      )
      expect(one.secret).not.toBe(two.secret)
      expect((yield* stored(toOne)).status).toBe("delivered")
      expect(yield* stored(toTwo)).toMatchObject({ status: "pending", attempts: 1 })
    }).pipe(Effect.provide(webhookWorld))
  )
})
