/**
 * A project's webhooks (contract section 5): URLs its events are POSTed to, signed per Standard
 * Webhooks with a secret shown only in the answer that creates it, and the latest attempts at each, so
 * that an owner whose receiver got nothing can see why. Every operation needs a key and sees only the
 * key's own account's projects: another account's project (or its webhook) reads as one that does not
 * exist (404).
 */
import {
  CreatedWebhookResource,
  DeliveryAttempt,
  DomainEventType,
  deliveryAttemptsShown,
  WebhookResource
} from "@petstore/custom-domains"
import { Schema } from "effect"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { InvalidRequest, NotFound } from "./ApiErrors.js"
import { Authentication } from "./Authentication.js"
import { takesJsonBody } from "./BodyOperation.js"
import { NamedClass } from "./NamedClass.js"

const eventTypeRule = `must be one of ${DomainEventType.literals.join(", ")}`

/** A webhook as its project's owner sees it (the domain's `WebhookResource`): never its secret. */
export class WebhookView extends Schema.Class<WebhookView>("Webhook")(WebhookResource) {}

/** A webhook just created: the only answer that shows its signing secret (201). */
export class NewWebhookView extends Schema.Class<NewWebhookView>("CreatedWebhook")(CreatedWebhookResource) {}

export class CreateWebhookRequest extends NamedClass<CreateWebhookRequest>("CreateWebhookRequest")({
  url: Schema.String.annotate({
    description:
      "Where the events are POSTed: an https URL (at most 2048 characters) without credentials, whose host is a name or a public address."
  }),
  events: Schema.optionalKey(
    Schema.NullOr(
      Schema.Array(DomainEventType.annotate({ message: eventTypeRule })).check(
        Schema.isMinLength(1, {
          message: "must name at least one event type, or be left out for all of them"
        })
      )
    )
  ).annotate({
    description:
      "The event types sent to this webhook; left out (or null): every type, those added later too."
  })
}) {}

export class WebhookList extends NamedClass<WebhookList>("WebhookList")({
  webhooks: Schema.Array(WebhookView)
}) {}

export class DeliveryAttemptList extends NamedClass<DeliveryAttemptList>("DeliveryAttemptList")(
  { deliveries: Schema.Array(DeliveryAttempt) },
  {
    description: `The latest attempts at delivering to the webhook (at most ${deliveryAttemptsShown}), newest first.`
  }
) {}

const projectPath = { projectId: Schema.String }
const webhookPath = {
  projectId: Schema.String,
  webhookId: Schema.String.annotate({ description: "The webhook's id, `wh_` and 26 characters." })
}

const createWebhook = takesJsonBody(
  HttpApiEndpoint.post("createWebhook", "/projects/:projectId/webhooks", {
    params: projectPath,
    payload: CreateWebhookRequest,
    success: NewWebhookView.pipe(HttpApiSchema.status(201)),
    error: [InvalidRequest, NotFound]
  })
    .annotate(OpenApi.Summary, "Add a webhook: the project's events from now on are POSTed to its URL")
    .annotate(
      OpenApi.Description,
      "The answer is the only one that shows `secret`, the key each delivery is signed with (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`). Deliveries are at least once, in order per hostname, retried with backoff for 24 hours; redirects are not followed, and private or loopback addresses are refused."
    )
)

const listWebhooks = HttpApiEndpoint.get("listWebhooks", "/projects/:projectId/webhooks", {
  params: projectPath,
  success: WebhookList,
  error: NotFound
})
  .middleware(Authentication)
  .annotate(OpenApi.Summary, "A project's webhooks, oldest first (without their secrets)")

const getWebhook = HttpApiEndpoint.get("getWebhook", "/projects/:projectId/webhooks/:webhookId", {
  params: webhookPath,
  success: WebhookView,
  error: NotFound
})
  .middleware(Authentication)
  .annotate(OpenApi.Summary, "A webhook of the project (without its secret)")

const deleteWebhook = HttpApiEndpoint.delete("deleteWebhook", "/projects/:projectId/webhooks/:webhookId", {
  params: webhookPath,
  success: HttpApiSchema.NoContent,
  error: NotFound
})
  .middleware(Authentication)
  .annotate(OpenApi.Summary, "Delete a webhook: nothing more is sent to it, pending deliveries included")

const listDeliveries = HttpApiEndpoint.get(
  "listWebhookDeliveries",
  "/projects/:projectId/webhooks/:webhookId/deliveries",
  { params: webhookPath, success: DeliveryAttemptList, error: NotFound }
)
  .middleware(Authentication)
  .annotate(OpenApi.Summary, `The latest attempts at delivering to a webhook, newest first`)
  .annotate(
    OpenApi.Description,
    "Each attempt says which event it carried, its number (1 for the first), whether it was `delivered`, is `retrying` or `failed` for good, the receiver's HTTP status (null when none answered) and why it failed."
  )

export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(createWebhook)
  .add(listWebhooks)
  .add(getWebhook)
  .add(deleteWebhook)
  .add(listDeliveries)
  .prefix("/v1") {}
