/**
 * The webhook handlers: each calls one webhook use case as the key's account and maps its failures.
 * Creation and rotation answer the views that carry a secret; every other answer is built from the
 * view without it, so the secret cannot leak through a forgotten field.
 */
import {
  DeliveryAttemptList,
  NewWebhookView,
  PetstoreApi,
  RotatedWebhookSecretView,
  WebhookList,
  WebhookView
} from "@petstore/api"
import {
  createdWebhookResource,
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveryAttempts,
  listWebhooks,
  rotatedWebhookSecretResource,
  rotateWebhookSecret,
  updateWebhook,
  type Webhook,
  webhookResource
} from "@petstore/webhooks"
import { Effect } from "effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { invalidDomainRequest, limitReached, projectNotFound, webhookNotFound } from "./DomainErrors.js"
import { projectScope } from "./ProjectScope.js"
import { storageUnavailable } from "./StorageUnavailable.js"
import { WebhookUrlPolicy } from "./WebhookUrlPolicy.js"

const view = (webhook: Webhook) => new WebhookView(webhookResource(webhook))

const common = {
  ProjectNotFound: projectNotFound,
  WebhookNotFound: webhookNotFound,
  StorageError: storageUnavailable
} as const

export const WebhooksHandlers = HttpApiBuilder.group(PetstoreApi, "webhooks", (handlers) =>
  handlers
    .handle("createWebhook", ({ params, payload }) =>
      Effect.gen(function* () {
        const { account, id } = yield* projectScope(params.projectId)
        const policy = yield* WebhookUrlPolicy
        const webhook = yield* createWebhook(account, id, payload, policy)
        return new NewWebhookView(createdWebhookResource(webhook))
      }).pipe(
        Effect.catchTags({
          ProjectNotFound: projectNotFound,
          InvalidDomainRequest: invalidDomainRequest,
          LimitReached: limitReached,
          StorageError: storageUnavailable
        })
      )
    )
    .handle("listWebhooks", ({ params }) =>
      Effect.flatMap(projectScope(params.projectId), ({ account, id }) => listWebhooks(account, id)).pipe(
        Effect.map((webhooks) => new WebhookList({ webhooks: webhooks.map(view) })),
        Effect.catchTags({ ProjectNotFound: projectNotFound, StorageError: storageUnavailable })
      )
    )
    .handle("getWebhook", ({ params }) =>
      Effect.flatMap(projectScope(params.projectId), ({ account, id }) =>
        getWebhook(account, id, params.webhookId)
      ).pipe(Effect.map(view), Effect.catchTags(common))
    )
    .handle("deleteWebhook", ({ params }) =>
      Effect.flatMap(projectScope(params.projectId), ({ account, id }) =>
        deleteWebhook(account, id, params.webhookId)
      ).pipe(Effect.catchTags(common))
    )
    .handle("updateWebhook", ({ params, payload }) =>
      Effect.flatMap(projectScope(params.projectId), ({ account, id }) =>
        updateWebhook(account, id, params.webhookId, payload)
      ).pipe(Effect.map(view), Effect.catchTags(common))
    )
    .handle("rotateWebhookSecret", ({ params }) =>
      Effect.flatMap(projectScope(params.projectId), ({ account, id }) =>
        rotateWebhookSecret(account, id, params.webhookId)
      ).pipe(
        Effect.map((webhook) => new RotatedWebhookSecretView(rotatedWebhookSecretResource(webhook))),
        Effect.catchTags(common)
      )
    )
    .handle("listWebhookDeliveries", ({ params }) =>
      Effect.flatMap(projectScope(params.projectId), ({ account, id }) =>
        listDeliveryAttempts(account, id, params.webhookId)
      ).pipe(
        Effect.map((deliveries) => new DeliveryAttemptList({ deliveries })),
        Effect.catchTags(common)
      )
    )
)
