/**
 * Which webhook URLs the API accepts at creation: the operator's `PETSTORE_WEBHOOK_ALLOW_PRIVATE`, as
 * the application read it. A reference with the safe default (`https` to public addresses only), so a
 * server that is told nothing refuses what its deliveries would refuse.
 */
import type { WebhookUrlOptions } from "@petstore/webhooks"
import { Context } from "effect"

export const WebhookUrlPolicy = Context.Reference<WebhookUrlOptions>("@petstore/http/WebhookUrlPolicy", {
  defaultValue: () => ({ allowPrivate: false })
})
