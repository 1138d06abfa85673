/**
 * Port: what sends one delivery over the network (an adapter: signing per Standard Webhooks, the
 * address checks at delivery time, the timeout). It never fails: whatever happened is a `SendOutcome`,
 * which the retry rule turns into the delivery's next state.
 */
import type { Effect } from "effect"
import { Context, Schema } from "effect"

export interface WebhookRequest {
  readonly url: string
  /** The `webhook-id` header: the event's id, the same across its attempts so receivers can dedupe. */
  readonly webhookId: string
  /** The `webhook-timestamp` header, signed with the body. */
  readonly timestamp: Date
  /** The event as JSON, sent as it is signed. */
  readonly body: string
  /** The webhook's `whsec_` secret. */
  readonly secret: string
}

export const SendOutcome = Schema.Union([
  /** The receiver answered 2xx. */
  Schema.TaggedStruct("Delivered", { status: Schema.Int }),
  /** The receiver answered anything else, a redirect included (never followed). */
  Schema.TaggedStruct("Rejected", { status: Schema.Int }),
  /** No answer: timeout, connection refused or reset, TLS failure, the name not found. */
  Schema.TaggedStruct("Unreachable", { reason: Schema.String }),
  /** The name resolved to an address deliveries may not reach; no connection was opened. */
  Schema.TaggedStruct("Refused", { reason: Schema.String })
])
export type SendOutcome = typeof SendOutcome.Type

export class WebhookSender extends Context.Service<
  WebhookSender,
  {
    readonly send: (request: WebhookRequest) => Effect.Effect<SendOutcome>
  }
>()("@petstore/custom-domains/WebhookSender") {}
