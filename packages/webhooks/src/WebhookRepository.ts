/**
 * Port: where a project's webhooks are kept, with the attempts at delivering to them. The store makes
 * a new webhook's id and secret (`webhookIdFrom`, `webhookSecretFrom` with its own random bytes), so
 * that no secret ever passes through a use case before it exists. Deliveries themselves are queued by
 * the stores' event writes (the outbox) and worked through `WebhookDeliveryRepository`.
 */
import type { LimitReached, StorageError } from "@petstore/kernel"
import type { ProjectId } from "@petstore/projects"
import type { Effect, Option } from "effect"
import { Context } from "effect"
import type { DeliveryAttempt, Webhook, WebhookEvents, WebhookId } from "./Webhook.js"

/** What a new webhook is made of; the store adds its id, its secret and when it was created. */
export interface NewWebhook {
  readonly projectId: ProjectId
  /** Already checked by `validateWebhookUrl`. */
  readonly url: string
  readonly events: WebhookEvents
}

export class WebhookRepository extends Context.Service<
  WebhookRepository,
  {
    /**
     * Keeps a new webhook created at `now`; it is sent the events stored from then on. Fails with
     * `LimitReached` when its project has `maxPerProject` webhooks already (counted and added in one
     * step: concurrent creations at the limit never overshoot it).
     */
    readonly insert: (
      webhook: NewWebhook,
      now: Date,
      maxPerProject: number
    ) => Effect.Effect<Webhook, LimitReached | StorageError>
    /** A project's webhooks, oldest first. */
    readonly listByProject: (projectId: ProjectId) => Effect.Effect<ReadonlyArray<Webhook>, StorageError>
    readonly find: (
      projectId: ProjectId,
      id: WebhookId
    ) => Effect.Effect<Option.Option<Webhook>, StorageError>
    /**
     * Enables the project's webhook (its failures forgotten, `disabledAt` and `disabledReason` cleared),
     * whatever its status; none when it is not the project's.
     */
    readonly enable: (
      projectId: ProjectId,
      id: WebhookId
    ) => Effect.Effect<Option.Option<Webhook>, StorageError>
    /**
     * Gives the project's webhook a new secret at `now` (`rotatedWebhook`, the store's random bytes):
     * the replaced one signs beside it for 24 hours. None when it is not the project's.
     */
    readonly rotateSecret: (
      projectId: ProjectId,
      id: WebhookId,
      now: Date
    ) => Effect.Effect<Option.Option<Webhook>, StorageError>
    /** Forgets the webhook, its pending deliveries and its attempts; false when it was not the project's. */
    readonly remove: (projectId: ProjectId, id: WebhookId) => Effect.Effect<boolean, StorageError>
    /** The latest `limit` attempts at delivering to the project's webhook, newest first. */
    readonly listAttempts: (
      projectId: ProjectId,
      id: WebhookId,
      limit: number
    ) => Effect.Effect<ReadonlyArray<DeliveryAttempt>, StorageError>
  }
>()("@petstore/webhooks/WebhookRepository") {}
