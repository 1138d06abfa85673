/**
 * @petstore/webhook-sender: the domain's webhook delivery port on Node's HTTP clients, signed per Standard
 * Webhooks, with the address checks made on the resolved address at delivery time.
 */
export * as NodeWebhookSender from "./NodeWebhookSender.js"
