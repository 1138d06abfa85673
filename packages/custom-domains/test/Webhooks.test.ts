/**
 * The webhook use cases (contract section 5), over the in-memory world: creating a webhook checks its
 * URL and event types, and every operation goes through the project's owner, so another account's
 * project and its webhooks are never found.
 */
import { describe, expect, it } from "@effect/vitest"
import { InvalidDomainRequest } from "@petstore/domains"
import { DomainEventId } from "@petstore/events"
import { defaultLimits, LimitReached, Limits } from "@petstore/kernel"
import { ProjectId, ProjectNotFound } from "@petstore/projects"
import {
  createWebhook,
  DeliveryAttempt,
  deleteWebhook,
  deliveryAttemptsShown,
  getWebhook,
  listDeliveryAttempts,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
  WebhookId,
  WebhookNotFound
} from "@petstore/webhooks"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { fakeWorld } from "./support/CustomDomainWorld.js"
import { acme, deployedProject, expectFailure, nowDate, rival, t0 } from "./support/UseCases.js"
import { addedEvent, WebhookWorld, webhookWorld } from "./support/WebhookWorld.js"

const world = Layer.mergeAll(fakeWorld, webhookWorld)
const handbook = ProjectId.make("handbook")
const guide = ProjectId.make("guide")
const strict = { allowPrivate: false } as const
const hookUrl = "https://hooks.example.com/petstore"
const everyType = [
  "domain.added",
  "domain.verified",
  "domain.failed",
  "domain.removed",
  "domain.problems_changed",
  "certificate.issued",
  "certificate.delayed",
  "certificate.failed",
  "certificate.renewed",
  "certificate.renewal_failed"
].join(", ")

/** acme's handbook and guide, rival's docs; webhooks need no paid plan or deploy, so the plan is free. */
const projects = Effect.gen(function* () {
  yield* deployedProject(handbook, "free")
  yield* deployedProject(guide, "free")
  yield* deployedProject(ProjectId.make("docs"), "free", rival)
})

describe("createWebhook", () => {
  it.effect("keeps a webhook for every event type when none are named, with its id, secret and time", () =>
    Effect.gen(function* () {
      yield* projects
      const webhook = yield* createWebhook(acme, handbook, { url: hookUrl }, strict)
      expect(webhook.id).toMatch(/^wh_[a-z2-7]{26}$/)
      expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
      expect(webhook).toMatchObject({
        projectId: handbook,
        url: hookUrl,
        events: null,
        createdAt: new Date(t0)
      })
      expect(yield* listWebhooks(acme, handbook)).toStrictEqual([webhook])
    }).pipe(Effect.provide(world))
  )

  it.effect("keeps the URL as parsed, and the event types named, each once, in their order", () =>
    Effect.gen(function* () {
      yield* projects
      const webhook = yield* createWebhook(
        acme,
        handbook,
        {
          url: "https://HOOKS.example.com:8443/petstore?source=docs",
          events: ["certificate.issued", "domain.verified", "certificate.issued"]
        },
        strict
      )
      expect(webhook.url).toBe("https://hooks.example.com:8443/petstore?source=docs")
      expect(webhook.events).toStrictEqual(["certificate.issued", "domain.verified"])
    }).pipe(Effect.provide(world))
  )

  it.effect("takes events: null as every type", () =>
    Effect.gen(function* () {
      yield* projects
      const webhook = yield* createWebhook(acme, handbook, { url: hookUrl, events: null }, strict)
      expect(webhook.events).toBeNull()
    }).pipe(Effect.provide(world))
  )

  it.effect.each<readonly [string, string]>([
    ["http://hooks.example.com/petstore", "url: must use https"],
    ["https://10.0.0.7/hook", "url: must not be a private address (10.0.0.7)"],
    ["https://[::1]/hook", "url: must not be a loopback address (::1)"],
    ["https://user:secret@hooks.example.com/", "url: must not contain a user name or password"],
    ["hooks.example.com", "url: must be a URL such as https://example.com/webhooks"]
  ])("refuses the URL %j with InvalidDomainRequest %j and keeps nothing", ([url, message]) =>
    Effect.gen(function* () {
      yield* projects
      yield* expectFailure(
        createWebhook(acme, handbook, { url }, strict),
        new InvalidDomainRequest({ message })
      )
      expect(yield* listWebhooks(acme, handbook)).toStrictEqual([])
    }).pipe(Effect.provide(world))
  )

  it.effect("accepts http and private addresses when the operator allows private networks", () =>
    Effect.gen(function* () {
      yield* projects
      const local = yield* createWebhook(
        acme,
        handbook,
        { url: "http://127.0.0.1:3000/hook" },
        { allowPrivate: true }
      )
      expect(local.url).toBe("http://127.0.0.1:3000/hook")
    }).pipe(Effect.provide(world))
  )

  it.effect.each<readonly [ReadonlyArray<string>, string]>([
    [["domain.exploded"], `events: unknown event type "domain.exploded": must be among ${everyType}`],
    [
      ["domain.added", "DOMAIN.VERIFIED"],
      `events: unknown event type "DOMAIN.VERIFIED": must be among ${everyType}`
    ],
    [[""], `events: unknown event type "": must be among ${everyType}`],
    [[], "events: must name at least one event type, or be left out for all of them"]
  ])("refuses the events %j with InvalidDomainRequest and keeps nothing", ([events, message]) =>
    Effect.gen(function* () {
      yield* projects
      yield* expectFailure(
        createWebhook(acme, handbook, { url: hookUrl, events }, strict),
        new InvalidDomainRequest({ message })
      )
      expect(yield* listWebhooks(acme, handbook)).toStrictEqual([])
    }).pipe(Effect.provide(world))
  )

  it.effect("finds no project of another account (nor an unknown one), before looking at the URL", () =>
    Effect.gen(function* () {
      yield* projects
      const docs = ProjectId.make("docs")
      yield* expectFailure(
        createWebhook(acme, docs, { url: hookUrl }, strict),
        new ProjectNotFound({ id: "docs" })
      )
      yield* expectFailure(
        createWebhook(acme, docs, { url: "http://10.0.0.1/" }, strict),
        new ProjectNotFound({ id: "docs" })
      )
      yield* expectFailure(
        createWebhook(acme, ProjectId.make("nowhere"), { url: hookUrl }, strict),
        new ProjectNotFound({ id: "nowhere" })
      )
      expect(yield* listWebhooks(rival, docs)).toStrictEqual([])
    }).pipe(Effect.provide(world))
  )
})

describe("listWebhooks, getWebhook", () => {
  it.effect("lists a project's webhooks oldest first, and no other project's", () =>
    Effect.gen(function* () {
      yield* projects
      const older = yield* createWebhook(acme, handbook, { url: hookUrl }, strict)
      yield* TestClock.adjust("1 minute")
      const newer = yield* createWebhook(acme, handbook, { url: "https://other.example.com/" }, strict)
      const elsewhere = yield* createWebhook(acme, guide, { url: hookUrl }, strict)
      expect(yield* listWebhooks(acme, handbook)).toStrictEqual([older, newer])
      expect(yield* listWebhooks(acme, guide)).toStrictEqual([elsewhere])
      expect(newer.createdAt.getTime() - older.createdAt.getTime()).toBe(60_000)
    }).pipe(Effect.provide(world))
  )

  it.effect("gets a webhook by its id in its own project only", () =>
    Effect.gen(function* () {
      yield* projects
      const webhook = yield* createWebhook(acme, handbook, { url: hookUrl }, strict)
      expect(yield* getWebhook(acme, handbook, webhook.id)).toStrictEqual(webhook)
      yield* expectFailure(getWebhook(acme, guide, webhook.id), new WebhookNotFound({ id: webhook.id }))
      yield* expectFailure(getWebhook(rival, handbook, webhook.id), new ProjectNotFound({ id: "handbook" }))
      yield* expectFailure(listWebhooks(rival, handbook), new ProjectNotFound({ id: "handbook" }))
    }).pipe(Effect.provide(world))
  )

  it.effect.each([`wh_${"b".repeat(26)}`, "wh_short", "", "../etc/passwd", `WH_${"A".repeat(26)}`])(
    "finds no webhook %j",
    (id) =>
      Effect.gen(function* () {
        yield* projects
        yield* createWebhook(acme, handbook, { url: hookUrl }, strict)
        yield* expectFailure(getWebhook(acme, handbook, id), new WebhookNotFound({ id }))
      }).pipe(Effect.provide(world))
  )
})

describe("deleteWebhook", () => {
  it.effect("deletes the webhook (its pending deliveries go with it) and a second delete finds nothing", () =>
    Effect.gen(function* () {
      yield* projects
      const hooks = yield* WebhookWorld
      const kept = yield* createWebhook(acme, handbook, { url: "https://kept.example.com/" }, strict)
      const webhook = yield* createWebhook(acme, handbook, { url: hookUrl }, strict)
      const event = addedEvent(1, "docs.example.com", "handbook", yield* nowDate)
      const delivery = yield* hooks.enqueue(webhook, event, event.occurredAt)
      const keptDelivery = yield* hooks.enqueue(kept, event, event.occurredAt)
      yield* deleteWebhook(acme, handbook, webhook.id)
      expect(yield* listWebhooks(acme, handbook)).toStrictEqual([kept])
      expect(yield* hooks.storedDelivery(delivery)).toStrictEqual(Option.none())
      expect(yield* hooks.storedDelivery(keptDelivery)).toStrictEqual(Option.some(keptDelivery))
      yield* expectFailure(deleteWebhook(acme, handbook, webhook.id), new WebhookNotFound({ id: webhook.id }))
    }).pipe(Effect.provide(world))
  )

  it.effect("deletes nothing of another account's project or of another project", () =>
    Effect.gen(function* () {
      yield* projects
      const webhook = yield* createWebhook(acme, handbook, { url: hookUrl }, strict)
      yield* expectFailure(
        deleteWebhook(rival, handbook, webhook.id),
        new ProjectNotFound({ id: "handbook" })
      )
      yield* expectFailure(deleteWebhook(acme, guide, webhook.id), new WebhookNotFound({ id: webhook.id }))
      expect(yield* listWebhooks(acme, handbook)).toStrictEqual([webhook])
    }).pipe(Effect.provide(world))
  )
})

describe("listDeliveryAttempts", () => {
  const attempt = (n: number) =>
    new DeliveryAttempt({
      eventId: DomainEventId.make(String(n)),
      attempt: 1,
      status: n % 2 === 0 ? "delivered" : "retrying",
      httpStatus: n % 2 === 0 ? 204 : 503,
      error: n % 2 === 0 ? null : "http_503",
      at: new Date(t0 + n * 1000)
    })

  it.effect(`shows the latest ${deliveryAttemptsShown} attempts, newest first`, () =>
    Effect.gen(function* () {
      yield* projects
      const hooks = yield* WebhookWorld
      const webhook = yield* createWebhook(acme, handbook, { url: hookUrl }, strict)
      const other = yield* createWebhook(acme, handbook, { url: "https://other.example.com/" }, strict)
      for (let n = 1; n <= deliveryAttemptsShown + 5; n++) yield* hooks.putAttempt(webhook.id, attempt(n))
      yield* hooks.putAttempt(other.id, attempt(1000))
      const shown = yield* listDeliveryAttempts(acme, handbook, webhook.id)
      expect(shown).toHaveLength(deliveryAttemptsShown)
      expect(shown[0]).toStrictEqual(attempt(deliveryAttemptsShown + 5))
      expect(shown[deliveryAttemptsShown - 1]).toStrictEqual(attempt(6))
      expect(yield* listDeliveryAttempts(acme, handbook, other.id)).toStrictEqual([attempt(1000)])
    }).pipe(Effect.provide(world))
  )

  it.effect("finds no webhook that is not the project's, and no project of another account", () =>
    Effect.gen(function* () {
      yield* projects
      const webhook = yield* createWebhook(acme, handbook, { url: hookUrl }, strict)
      const unknown = WebhookId.make(`wh_${"c".repeat(26)}`)
      yield* expectFailure(
        listDeliveryAttempts(acme, handbook, unknown),
        new WebhookNotFound({ id: unknown })
      )
      yield* expectFailure(
        listDeliveryAttempts(acme, guide, webhook.id),
        new WebhookNotFound({ id: webhook.id })
      )
      yield* expectFailure(
        listDeliveryAttempts(rival, handbook, webhook.id),
        new ProjectNotFound({ id: "handbook" })
      )
    }).pipe(Effect.provide(world))
  )
})

describe("updateWebhook, rotateWebhookSecret and the limit", () => {
  it.effect(
    "enables a webhook in the owner's project only; rotation gives a new secret, the old one kept",
    () =>
      Effect.gen(function* () {
        yield* projects
        const webhook = yield* createWebhook(acme, handbook, { url: hookUrl }, strict)
        const enabled = yield* updateWebhook(acme, handbook, webhook.id, { status: "enabled" })
        expect(enabled).toMatchObject({
          id: webhook.id,
          status: "enabled",
          disabledAt: null,
          failingSince: null
        })
        yield* expectFailure(
          updateWebhook(rival, handbook, webhook.id, { status: "enabled" }),
          new ProjectNotFound({ id: handbook })
        )
        yield* expectFailure(
          updateWebhook(acme, guide, webhook.id, { status: "enabled" }),
          new WebhookNotFound({ id: webhook.id })
        )
        yield* expectFailure(
          rotateWebhookSecret(acme, guide, webhook.id),
          new WebhookNotFound({ id: webhook.id })
        )
        yield* expectFailure(
          rotateWebhookSecret(acme, handbook, "wh_nope"),
          new WebhookNotFound({ id: "wh_nope" })
        )
        yield* TestClock.setTime(t0 + 1_000)
        const rotated = yield* rotateWebhookSecret(acme, handbook, webhook.id)
        expect(rotated.secret).not.toBe(webhook.secret)
        expect(rotated.previousSecret).toBe(webhook.secret)
        expect(rotated.previousSecretUntil).toStrictEqual(new Date(t0 + 1_000 + 24 * 3_600_000))
        expect(
          Option.map(yield* Effect.option(getWebhook(acme, handbook, webhook.id)), (found) => found.secret)
        ).toStrictEqual(Option.some(rotated.secret))
      }).pipe(Effect.provide(world))
  )

  it.effect("refuses a webhook past the project's limit, naming it; another project counts its own", () =>
    Effect.gen(function* () {
      yield* projects
      const limited = Effect.provideService(Limits, { ...defaultLimits, webhooksPerProject: 2 })
      yield* limited(createWebhook(acme, handbook, { url: hookUrl }, strict))
      yield* limited(createWebhook(acme, handbook, { url: hookUrl }, strict))
      yield* expectFailure(
        limited(createWebhook(acme, handbook, { url: hookUrl }, strict)),
        new LimitReached({ limit: "webhooks per project", value: 2 })
      )
      yield* limited(createWebhook(acme, guide, { url: hookUrl }, strict))
      expect(yield* listWebhooks(acme, handbook)).toHaveLength(2)
      // The contract's default: 10.
      for (let n = 0; n < 8; n++) yield* createWebhook(acme, handbook, { url: hookUrl }, strict)
      yield* expectFailure(
        createWebhook(acme, handbook, { url: hookUrl }, strict),
        new LimitReached({ limit: "webhooks per project", value: 10 })
      )
    }).pipe(Effect.provide(world))
  )
})
