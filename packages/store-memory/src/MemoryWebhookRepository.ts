/**
 * WebhookRepository in memory: webhooks on the table the domain repository appends events to
 * (`MemoryDomainTable`), so that an event is owed to exactly the webhooks stored before it. A new
 * webhook's id and secret are made from `node:crypto`, spelt by the domain; it is counted against its
 * project's limit in the same atomic update that adds it. Removing a webhook removes
 * its deliveries, and the attempts recorded at them, in the same update.
 */
import { randomBytes } from "node:crypto"
import { type LimitReached, limitReached } from "@petstore/kernel"
import type { ProjectId } from "@petstore/projects"
import {
  enabledWebhook,
  newWebhook,
  rotatedWebhook,
  type Webhook,
  type WebhookId,
  WebhookRepository
} from "@petstore/webhooks"
import { Effect, HashMap, Layer, Option, Order, Ref } from "effect"
import {
  type DomainTable,
  MemoryDomainTable,
  type RecordedAttempt,
  type StoredWebhook,
  webhooksOf
} from "./MemoryDomainTable.js"

/** Newest first: by when they were made, then by when they were recorded. */
const newestFirst: Order.Order<RecordedAttempt> = Order.flip(
  Order.combine(
    Order.mapInput(Order.Number, (recorded: RecordedAttempt) => recorded.attempt.at.getTime()),
    Order.mapInput(Order.Number, (recorded: RecordedAttempt) => recorded.position)
  )
)

export const make: Effect.Effect<WebhookRepository["Service"], never, MemoryDomainTable> = Effect.gen(
  function* () {
    const table = yield* MemoryDomainTable

    /** The project's webhook with this id, if it has one. */
    const findIn = (
      current: DomainTable,
      projectId: ProjectId,
      id: WebhookId
    ): Option.Option<StoredWebhook> =>
      Option.filter(HashMap.get(current.webhooks, id), (stored) => stored.webhook.projectId === projectId)

    /** The project's webhook changed by `change` (the store's own random bytes at hand), in one update. */
    const changeIn = (projectId: ProjectId, id: WebhookId, change: (webhook: Webhook) => Webhook) =>
      Ref.modify(table, (current): [Option.Option<Webhook>, DomainTable] =>
        Option.match(findIn(current, projectId, id), {
          onNone: () => [Option.none(), current],
          onSome: (stored) => {
            const webhook = change(stored.webhook)
            return [
              Option.some(webhook),
              { ...current, webhooks: HashMap.set(current.webhooks, id, { ...stored, webhook }) }
            ]
          }
        })
      )

    return WebhookRepository.of({
      insert: ({ events, projectId, url }, now, maxPerProject) =>
        Effect.flatMap(
          Effect.sync(() => newWebhook({ projectId, url, events }, now, randomBytes)),
          (webhook) =>
            Effect.flatten(
              Ref.modify(table, (current): [Effect.Effect<Webhook, LimitReached>, DomainTable] =>
                webhooksOf(current, projectId).length >= maxPerProject
                  ? [Effect.fail(limitReached("webhooksPerProject", maxPerProject)), current]
                  : [
                      Effect.succeed(webhook),
                      {
                        ...current,
                        nextWebhookPosition: current.nextWebhookPosition + 1,
                        webhooks: HashMap.set(current.webhooks, webhook.id, {
                          webhook,
                          position: current.nextWebhookPosition,
                          lane: Option.none()
                        })
                      }
                    ]
              )
            )
        ),
      listByProject: (projectId) =>
        Effect.map(Ref.get(table), (current) =>
          webhooksOf(current, projectId).map((stored) => stored.webhook)
        ),
      find: (projectId, id) =>
        Effect.map(Ref.get(table), (current) =>
          Option.map(findIn(current, projectId, id), (stored) => stored.webhook)
        ),
      enable: (projectId, id) => changeIn(projectId, id, enabledWebhook),
      rotateSecret: (projectId, id, now) =>
        changeIn(projectId, id, (webhook) => rotatedWebhook(webhook, now, randomBytes)),
      remove: (projectId, id) =>
        Ref.modify(table, (current): [boolean, DomainTable] =>
          Option.isNone(findIn(current, projectId, id))
            ? [false, current]
            : [
                true,
                {
                  ...current,
                  webhooks: HashMap.remove(current.webhooks, id),
                  deliveries: HashMap.filter(current.deliveries, ({ delivery }) => delivery.webhookId !== id)
                }
              ]
        ),
      listAttempts: (projectId, id, limit) =>
        Effect.map(Ref.get(table), (current) =>
          Option.isNone(findIn(current, projectId, id))
            ? []
            : [...HashMap.values(current.deliveries)]
                .filter(({ delivery }) => delivery.webhookId === id)
                .flatMap((stored) => stored.attempts)
                .sort(newestFirst)
                .slice(0, Math.max(0, Math.floor(limit)))
                .map((recorded) => recorded.attempt)
        )
    })
  }
)

export const layer: Layer.Layer<WebhookRepository, never, MemoryDomainTable> = Layer.effect(
  WebhookRepository,
  make
)
