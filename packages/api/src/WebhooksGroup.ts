/**
 * A project's webhooks (contract section 5): URLs its events are POSTed to, signed per Standard
 * Webhooks with a secret shown only in the answer that creates it, and the latest attempts at each, so
 * that an owner whose receiver got nothing can see why. A webhook whose every delivery failed for
 * 72 hours is disabled, and enabled again by its owner; its secret can be rotated, the old one signing
 * beside the new one for 24 hours (contract section 9). Every operation needs a key and sees only the
 * key's own account's projects: another account's project (or its webhook) reads as one that does not
 * exist (404).
 */

import { DomainEventType } from "@petstore/events"
import {
  CreatedWebhookResource,
  DeliveryAttempt,
  deliveryAttemptsShown,
  RotatedWebhookSecretResource,
  WebhookResource
} from "@petstore/webhooks"
import { Schema } from "effect"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { Conflict, InvalidRequest, NotFound } from "./ApiErrors.js"
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
      "Where the events are POSTed: an https URL (at most 2048 characters) without credentials, whose host is a public IP address or a name under a suffix the Public Suffix List lists (not a single label, `.internal`, `.corp`, `.lan`, `.local`)."
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

/** A rotated secret: the only answer that shows the new one (200). */
export class RotatedWebhookSecretView extends Schema.Class<RotatedWebhookSecretView>("RotatedWebhookSecret")(
  RotatedWebhookSecretResource
) {}

export class UpdateWebhookRequest extends NamedClass<UpdateWebhookRequest>("UpdateWebhookRequest")({
  status: Schema.Literals(["enabled"]).annotate({
    message: "must be enabled (a webhook is disabled only by failing)",
    description:
      "`enabled`: deliveries start again (a webhook is disabled by the service, after its deliveries failed for 72 hours, never by its owner)."
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
    error: [InvalidRequest, NotFound, Conflict]
  })
    .annotate(OpenApi.Summary, "Add a webhook: the project's events from now on are POSTed to its URL")
    .annotate(
      OpenApi.Description,
      "The answer is the only one that shows `secret`, the key each delivery is signed with (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`). Deliveries are at least once, in order per hostname, retried with backoff for 24 hours; redirects are not followed, and private or loopback addresses are refused. 409 `limit_reached` when the project has as many webhooks as its limit (10 unless the operator set `PETSTORE_LIMIT_WEBHOOKS_PER_PROJECT`)."
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

const updateWebhook = takesJsonBody(
  HttpApiEndpoint.patch("updateWebhook", "/projects/:projectId/webhooks/:webhookId", {
    params: webhookPath,
    payload: UpdateWebhookRequest,
    success: WebhookView,
    error: [InvalidRequest, NotFound]
  })
    .annotate(OpenApi.Summary, "Enable a webhook again")
    .annotate(
      OpenApi.Description,
      'A webhook whose every delivery failed for 72 hours is `disabled` (with `disabledAt` and `disabledReason`, the last failure\'s reason) and gets no new deliveries. `{"status": "enabled"}` enables it: its failures are forgotten, its pending deliveries are retried and the events stored from now on are sent.'
    )
)

const rotateSecret = HttpApiEndpoint.post(
  "rotateWebhookSecret",
  "/projects/:projectId/webhooks/:webhookId/rotate-secret",
  { params: webhookPath, success: RotatedWebhookSecretView, error: NotFound }
)
  .middleware(Authentication)
  .annotate(OpenApi.Summary, "Give a webhook a new signing secret, shown only in this answer")
  .annotate(
    OpenApi.Description,
    "For 24 hours (until `previousSecretExpiresAt`) every delivery is signed with both secrets: `webhook-signature` carries two space-separated `v1,` signatures, so that a receiver verifying with either accepts it; then with the new one only. Rotating again during those 24 hours drops the oldest secret."
  )

const listDeliveries = HttpApiEndpoint.get(
  "listWebhookDeliveries",
  "/projects/:projectId/webhooks/:webhookId/deliveries",
  { params: webhookPath, success: DeliveryAttemptList, error: NotFound }
)
  .middleware(Authentication)
  .annotate(OpenApi.Summary, `The latest attempts at delivering to a webhook, newest first`)
  .annotate(
    OpenApi.Description,
    "Each attempt says which event it carried, its number (1 for the first), whether it was `delivered`, is `retrying` or `failed` for good, the receiver's HTTP status (null when none answered) and why it failed, as a generic reason: `refused_address`, `dns_error`, `timeout`, `tls_error`, `connection_error` or `http_<status>`."
  )

export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(createWebhook)
  .add(listWebhooks)
  .add(getWebhook)
  .add(deleteWebhook)
  .add(updateWebhook)
  .add(rotateSecret)
  .add(listDeliveries)
  .prefix("/v1") {}
