/**
 * Port: what sends one delivery over the network (an adapter: signing per Standard Webhooks, the
 * address checks at delivery time, the timeout). It never fails: whatever happened is a `SendOutcome`,
 * which the retry rule turns into the delivery's next state. An outcome carries no detail of the
 * network (addresses, resolver messages): it is shown to the webhook's owner as it is.
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
  /**
   * The webhook's `whsec_` secrets, the current one first: each signs the request (one `v1,` signature
   * each in `webhook-signature`), so that during a rotation's overlap either verifies.
   */
  readonly secrets: ReadonlyArray<string>
}

export const SendOutcome = Schema.Union([
  /** The receiver answered 2xx. */
  Schema.TaggedStruct("Delivered", { status: Schema.Int }),
  /** The receiver answered anything else, a redirect included (never followed). */
  Schema.TaggedStruct("Rejected", { status: Schema.Int }),
  /**
   * No answer, for a generic reason: the name resolved to an address deliveries may not reach (no
   * connection was opened), no address found or the resolver failing, no answer in time, the TLS
   * handshake or certificate, a connection refused or reset.
   */
  Schema.TaggedStruct("Unreachable", {
    reason: Schema.Literals(["refused_address", "dns_error", "timeout", "tls_error", "connection_error"])
  })
])
export type SendOutcome = typeof SendOutcome.Type

export class WebhookSender extends Context.Service<
  WebhookSender,
  {
    readonly send: (request: WebhookRequest) => Effect.Effect<SendOutcome>
  }
>()("@petstore/webhooks/WebhookSender") {}
