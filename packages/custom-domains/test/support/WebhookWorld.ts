/**
 * In-memory stand-ins for the webhook ports, keeping the ports' promises (leases, order per webhook
 * and hostname, results stored only while their lease holds), with the controls the tests need: what
 * the receiver answers, what happens while a request is in flight, and what was stored and sent.
 */

import { Hostname } from "@petstore/domains"
import { addedDomain } from "@petstore/domains/testing"
import { DomainEvent, DomainEventId } from "@petstore/events"
import { type Lease, limitReached, StorageError } from "@petstore/kernel"
import { ProjectId } from "@petstore/projects"
import {
  type ClaimedDelivery,
  type DeliveryAttempt,
  enabledWebhook,
  newWebhook,
  rotatedWebhook,
  type SendOutcome,
  signingSecretsOf,
  type Webhook,
  WebhookDelivery,
  type WebhookDeliveryKey,
  WebhookDeliveryRepository,
  type WebhookId,
  Webhook as WebhookRecord,
  WebhookRepository,
  type WebhookRequest,
  WebhookSender
} from "@petstore/webhooks"
import { Context, Effect, Layer, Option, Ref } from "effect"

/** The event `domain.added` of `hostname` in `projectId`, numbered `id`, at `at`. */
export const addedEvent = (id: number, hostname: string, projectId: string, at: Date): DomainEvent =>
  new DomainEvent({
    id: DomainEventId.make(String(id)),
    type: "domain.added",
    occurredAt: at,
    projectId: ProjectId.make(projectId),
    hostname: Hostname.make(hostname),
    data: addedDomain(hostname, projectId, "cname.docs-platform.net", at)
  })

interface DeliveryRow {
  readonly delivery: WebhookDelivery
  readonly lease: Lease | null
}

export interface WebhookControls {
  /** Queues `event` for `webhook` as a store's event write does, due at once (`nextAttemptAt` = `at`). */
  readonly enqueue: (webhook: Webhook, event: DomainEvent, at: Date) => Effect.Effect<WebhookDelivery>
  /** Puts a delivery in the queue as it stands (one attempted before the test starts). */
  readonly putDelivery: (delivery: WebhookDelivery) => Effect.Effect<void>
  readonly storedDelivery: (key: WebhookDeliveryKey) => Effect.Effect<Option.Option<WebhookDelivery>>
  readonly leaseOf: (key: WebhookDeliveryKey) => Effect.Effect<Lease | null>
  /** Hands the lease of a delivery to another holder (a worker that took an expired lease over). */
  readonly stealLease: (key: WebhookDeliveryKey, holder: string) => Effect.Effect<void>
  /** Every attempt recorded, oldest first, with its webhook. */
  readonly attempts: Effect.Effect<
    ReadonlyArray<{ readonly webhookId: WebhookId; readonly attempt: DeliveryAttempt }>
  >
  /** Records an attempt directly (earlier history of a webhook). */
  readonly putAttempt: (webhookId: WebhookId, attempt: DeliveryAttempt) => Effect.Effect<void>
  /** The leases given back, in order, as "<webhook id> <event id>". */
  readonly releases: Effect.Effect<ReadonlyArray<string>>
  /** Makes storing any batch of results that holds this event's delivery fail with a storage error. */
  readonly failCompletionOf: (eventId: string) => Effect.Effect<void>
  /** What the receiver at `url` answers next, in order; once used up it answers 204. */
  readonly answer: (url: string, ...outcomes: ReadonlyArray<SendOutcome>) => Effect.Effect<void>
  /** Runs `effect` while each request is in flight (after it is recorded, before it is answered). */
  readonly whileSending: (effect: (request: WebhookRequest) => Effect.Effect<void>) => Effect.Effect<void>
  /** Every request sent, in the order they were sent. */
  readonly sent: Effect.Effect<ReadonlyArray<WebhookRequest>>
  /** The most requests in flight at once. */
  readonly mostInFlight: Effect.Effect<number>
}

export class WebhookWorld extends Context.Service<WebhookWorld, WebhookControls>()("test/WebhookWorld") {}

const keyOf = (key: WebhookDeliveryKey) => `${key.webhookId} ${key.eventId}`

/** Deterministic stand-ins for the CSPRNG's bytes: distinct for every webhook made. */
const bytesOf = (seed: number, length: number) =>
  Uint8Array.from({ length }, (_, index) => (seed * 31 + index * 7) & 0xff)

export const webhookWorld: Layer.Layer<
  WebhookWorld | WebhookRepository | WebhookDeliveryRepository | WebhookSender
> = Layer.effectContext(
  Effect.gen(function* () {
    const webhooks = yield* Ref.make<ReadonlyArray<Webhook>>([])
    const rows = yield* Ref.make(new Map<string, DeliveryRow>())
    const events = yield* Ref.make(new Map<string, DomainEvent>())
    const attempts = yield* Ref.make<ReadonlyArray<{ webhookId: WebhookId; attempt: DeliveryAttempt }>>([])
    const releases = yield* Ref.make<ReadonlyArray<string>>([])
    const failingCompletions = yield* Ref.make(new Set<string>())
    const answers = yield* Ref.make(new Map<string, ReadonlyArray<SendOutcome>>())
    const hook = yield* Ref.make<(request: WebhookRequest) => Effect.Effect<void>>(() => Effect.void)
    const sent = yield* Ref.make<ReadonlyArray<WebhookRequest>>([])
    const inFlight = yield* Ref.make(0)
    const mostInFlight = yield* Ref.make(0)
    const made = yield* Ref.make(0)

    const setRow = (row: DeliveryRow) => Ref.update(rows, (map) => new Map(map).set(keyOf(row.delivery), row))
    const isLive = (lease: Lease | null, now: Date) => lease !== null && lease.until.getTime() > now.getTime()

    /** The project's webhook changed by `change`; none when it has none of that id. */
    const change = (projectId: ProjectId, id: WebhookId, update: (webhook: Webhook) => Webhook) =>
      Ref.modify(webhooks, (all): [Option.Option<Webhook>, ReadonlyArray<Webhook>] => {
        const found = all.find((webhook) => webhook.projectId === projectId && webhook.id === id)
        if (found === undefined) return [Option.none(), all]
        const changed = update(found)
        return [Option.some(changed), all.map((webhook) => (webhook === found ? changed : webhook))]
      })

    const webhookRepository: WebhookRepository["Service"] = {
      insert: (input, now, maxPerProject) =>
        Effect.gen(function* () {
          const owned = (yield* Ref.get(webhooks)).filter((webhook) => webhook.projectId === input.projectId)
          if (owned.length >= maxPerProject) return yield* limitReached("webhooksPerProject", maxPerProject)
          const seed = yield* Ref.updateAndGet(made, (count) => count + 1)
          const webhook = newWebhook(input, now, (size) => bytesOf(seed, size))
          yield* Ref.update(webhooks, (all) => [...all, webhook])
          return webhook
        }),
      listByProject: (projectId) =>
        Effect.map(Ref.get(webhooks), (all) => all.filter((webhook) => webhook.projectId === projectId)),
      find: (projectId, id) =>
        Effect.map(Ref.get(webhooks), (all) =>
          Option.fromNullishOr(all.find((webhook) => webhook.projectId === projectId && webhook.id === id))
        ),
      enable: (projectId, id) => change(projectId, id, enabledWebhook),
      rotateSecret: (projectId, id, now) =>
        Effect.flatMap(
          Ref.updateAndGet(made, (count) => count + 1),
          (seed) =>
            change(projectId, id, (webhook) => rotatedWebhook(webhook, now, (size) => bytesOf(seed, size)))
        ),
      remove: (projectId, id) =>
        Effect.gen(function* () {
          const all = yield* Ref.get(webhooks)
          const kept = all.filter((webhook) => !(webhook.projectId === projectId && webhook.id === id))
          if (kept.length === all.length) return false
          yield* Ref.set(webhooks, kept)
          yield* Ref.update(
            rows,
            (map) => new Map(Array.from(map).filter(([, row]) => row.delivery.webhookId !== id))
          )
          yield* Ref.update(attempts, (all) => all.filter((recorded) => recorded.webhookId !== id))
          return true
        }),
      listAttempts: (projectId, id, limit) =>
        Effect.gen(function* () {
          const owned = (yield* Ref.get(webhooks)).some(
            (webhook) => webhook.projectId === projectId && webhook.id === id
          )
          if (!owned) return []
          return (yield* Ref.get(attempts))
            .filter((recorded) => recorded.webhookId === id)
            .map((recorded) => recorded.attempt)
            .reverse()
            .slice(0, limit)
        })
    }

    const deliveryRepository: WebhookDeliveryRepository["Service"] = {
      claimDue: (now, limit, lease) =>
        Effect.gen(function* () {
          const all = Array.from((yield* Ref.get(rows)).values())
          const pending = all.filter((row) => row.delivery.status === "pending")
          const waitsBehind = (row: DeliveryRow) =>
            pending.some(
              (other) =>
                other.delivery.webhookId === row.delivery.webhookId &&
                other.delivery.hostname === row.delivery.hostname &&
                BigInt(other.delivery.eventId) < BigInt(row.delivery.eventId)
            )
          const hooks = yield* Ref.get(webhooks)
          // A webhook's lane is busy while one of its deliveries is leased; disabled ones get nothing.
          const laneIsFree = (webhookId: WebhookId) =>
            hooks.some((webhook) => webhook.id === webhookId && webhook.status === "enabled") &&
            !all.some((other) => other.delivery.webhookId === webhookId && isLive(other.lease, now))
          const lanes = new Set<WebhookId>()
          const due = pending
            .filter(
              (row) =>
                row.delivery.nextAttemptAt.getTime() <= now.getTime() &&
                !isLive(row.lease, now) &&
                !waitsBehind(row) &&
                laneIsFree(row.delivery.webhookId)
            )
            .sort((a, b) => a.delivery.nextAttemptAt.getTime() - b.delivery.nextAttemptAt.getTime())
            .filter((row) => {
              if (lanes.has(row.delivery.webhookId)) return false
              lanes.add(row.delivery.webhookId)
              return true
            })
            .slice(0, limit)
          const eventsById = yield* Ref.get(events)
          const claimed: Array<ClaimedDelivery> = []
          for (const row of due) {
            const webhook = hooks.find((candidate) => candidate.id === row.delivery.webhookId)
            const event = eventsById.get(row.delivery.eventId)
            if (webhook === undefined || event === undefined) continue
            yield* setRow({ delivery: row.delivery, lease })
            claimed.push({
              delivery: row.delivery,
              event,
              url: webhook.url,
              secrets: signingSecretsOf(webhook, now),
              failingSince: webhook.failingSince
            })
          }
          return claimed
        }),
      complete: (results, holder) =>
        Effect.gen(function* () {
          const failing = yield* Ref.get(failingCompletions)
          if (results.some((result) => failing.has(result.delivery.eventId))) {
            return yield* new StorageError({ operation: "complete", cause: new Error("disk full") })
          }
          const stored: Array<WebhookDeliveryKey> = []
          for (const result of results) {
            const row = (yield* Ref.get(rows)).get(keyOf(result.delivery))
            if (row === undefined || row.lease?.holder !== holder) continue
            yield* setRow({ delivery: result.delivery, lease: null })
            const { disabled, expectedFailingSince, failingSince } = result.health
            yield* Ref.update(webhooks, (all) =>
              all.map((webhook) =>
                webhook.id === result.delivery.webhookId &&
                webhook.status === "enabled" &&
                webhook.failingSince?.getTime() === expectedFailingSince?.getTime()
                  ? new WebhookRecord({
                      ...webhook,
                      failingSince,
                      ...(disabled === null
                        ? {}
                        : { status: "disabled", disabledAt: disabled.at, disabledReason: disabled.reason })
                    })
                  : webhook
              )
            )
            yield* Ref.update(attempts, (all) => [
              ...all,
              { webhookId: result.delivery.webhookId, attempt: result.attempt }
            ])
            stored.push({ webhookId: result.delivery.webhookId, eventId: result.delivery.eventId })
          }
          return stored
        }),
      releaseLease: (key, holder) =>
        Effect.gen(function* () {
          yield* Ref.update(releases, (all) => [...all, keyOf(key)])
          const row = (yield* Ref.get(rows)).get(keyOf(key))
          if (row?.lease?.holder === holder) yield* setRow({ ...row, lease: null })
        })
    }

    const sender: WebhookSender["Service"] = {
      send: (request) =>
        Effect.gen(function* () {
          yield* Ref.update(sent, (all) => [...all, request])
          const flying = yield* Ref.updateAndGet(inFlight, (count) => count + 1)
          yield* Ref.update(mostInFlight, (most) => Math.max(most, flying))
          yield* Effect.flatMap(Ref.get(hook), (run) => run(request))
          // Lets the other requests of the round start before this one is answered.
          yield* Effect.yieldNow
          yield* Ref.update(inFlight, (count) => count - 1)
          return yield* Ref.modify(answers, (map): [SendOutcome, Map<string, ReadonlyArray<SendOutcome>>] => {
            const [next, ...rest] = map.get(request.url) ?? []
            return [next ?? { _tag: "Delivered", status: 204 }, new Map(map).set(request.url, rest)]
          })
        })
    }

    const controls: WebhookControls = {
      enqueue: (webhook, event, at) =>
        Effect.gen(function* () {
          const delivery = new WebhookDelivery({
            webhookId: webhook.id,
            eventId: event.id,
            hostname: event.hostname,
            attempts: 0,
            firstAttemptAt: null,
            nextAttemptAt: at,
            status: "pending"
          })
          yield* Ref.update(events, (map) => new Map(map).set(event.id, event))
          yield* setRow({ delivery, lease: null })
          return delivery
        }),
      putDelivery: (delivery) => setRow({ delivery, lease: null }),
      storedDelivery: (key) =>
        Effect.map(Ref.get(rows), (map) =>
          Option.map(Option.fromNullishOr(map.get(keyOf(key))), (row) => row.delivery)
        ),
      leaseOf: (key) => Effect.map(Ref.get(rows), (map) => map.get(keyOf(key))?.lease ?? null),
      stealLease: (key, holder) =>
        Effect.flatMap(Ref.get(rows), (map) => {
          const row = map.get(keyOf(key))
          return row === undefined
            ? Effect.void
            : setRow({ ...row, lease: { holder, until: new Date(8.64e15) } })
        }),
      attempts: Ref.get(attempts),
      putAttempt: (webhookId, attempt) => Ref.update(attempts, (all) => [...all, { webhookId, attempt }]),
      releases: Ref.get(releases),
      failCompletionOf: (eventId) => Ref.update(failingCompletions, (set) => new Set(set).add(eventId)),
      answer: (url, ...outcomes) =>
        Ref.update(answers, (map) => new Map(map).set(url, [...(map.get(url) ?? []), ...outcomes])),
      whileSending: (effect) => Ref.set(hook, effect),
      sent: Ref.get(sent),
      mostInFlight: Ref.get(mostInFlight)
    }

    return Context.make(WebhookWorld, controls).pipe(
      Context.add(WebhookRepository, webhookRepository),
      Context.add(WebhookDeliveryRepository, deliveryRepository),
      Context.add(WebhookSender, sender)
    )
  })
)
