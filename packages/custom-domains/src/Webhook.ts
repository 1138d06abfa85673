/**
 * Webhooks of a project (contract section 5): where its events are POSTed, signed with a secret shown
 * only once, when the webhook is created. Every event stored after a webhook was created, of a type it
 * listens to, becomes a `WebhookDelivery` in the outbox's transaction; the worker's attempts at it are
 * `DeliveryAttempt`s, which the owner reads to see why a receiver got nothing.
 */
import { Schema } from "effect"
import { Base64 } from "effect/encoding"
import { DomainEventId, DomainEventType } from "./DomainEvent.js"
import { Hostname } from "./Hostname.js"
import { ProjectId } from "./Project.js"
import { Timestamp } from "./Timestamp.js"

/** `wh_` and 26 characters of the base32 alphabet (RFC 4648), in lower case: 130 random bits. */
const webhookIdPattern = /^wh_[a-z2-7]{26}$/

export const WebhookId = Schema.String.pipe(
  Schema.check(
    Schema.isPattern(webhookIdPattern, {
      message: "must be a webhook id",
      toJsonSchema: () => ({ pattern: webhookIdPattern.source })
    })
  ),
  Schema.brand("WebhookId"),
  Schema.annotate({ identifier: "WebhookId", description: "A webhook's id, `wh_` and 26 characters." })
)
export type WebhookId = typeof WebhookId.Type

/** `whsec_` and the base64 of 32 random bytes: the form Standard Webhooks libraries take as they are. */
const webhookSecretPattern = /^whsec_[A-Za-z0-9+/]{43}=$/

export const WebhookSecret = Schema.String.pipe(
  Schema.check(
    Schema.isPattern(webhookSecretPattern, {
      message: "must be a webhook secret",
      toJsonSchema: () => ({ pattern: webhookSecretPattern.source })
    })
  ),
  Schema.annotate({
    identifier: "WebhookSecret",
    description: "The key deliveries are signed with (Standard Webhooks), shown only when it is created."
  })
)

const base32Alphabet = "abcdefghijklmnopqrstuvwxyz234567"

/**
 * The id a store gives a new webhook, from at least 17 random bytes (its own, from `node:crypto`): the
 * domain only spells them, so that every store's ids look the same.
 */
export const webhookIdFrom = (randomBytes: Uint8Array): WebhookId => {
  let bits = 0
  let value = 0
  let text = ""
  for (const byte of randomBytes) {
    value = ((value << 8) | byte) & 0xffff
    bits += 8
    while (bits >= 5 && text.length < 26) {
      text += base32Alphabet[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  return WebhookId.make(`wh_${text}`)
}

/** The secret a store gives a new webhook, from 32 random bytes of its own. */
export const webhookSecretFrom = (randomBytes: Uint8Array): string => `whsec_${Base64.encode(randomBytes)}`

/** The event types a webhook is sent; null: every type, those added later included. */
export const WebhookEvents = Schema.NullOr(Schema.Array(DomainEventType))
export type WebhookEvents = typeof WebhookEvents.Type

const webhookFields = {
  id: WebhookId,
  url: Schema.String,
  events: WebhookEvents,
  createdAt: Timestamp
}

// A class's struct carries its identifier too: JSON Schema names a class by its encoded side.
export class Webhook extends Schema.Class<Webhook>("WebhookRecord")(
  Schema.Struct({
    ...webhookFields,
    projectId: ProjectId,
    secret: WebhookSecret
  }).annotate({ identifier: "WebhookRecord" })
) {}

/** 17 bytes: the 130 bits an id spells. */
export const webhookIdBytes = 17
/** 32 bytes: what Standard Webhooks libraries expect of a secret. */
export const webhookSecretBytes = 32

/**
 * A new webhook at `now`, its id and secret spelt from `randomBytes` (a store's cryptographically
 * secure source, e.g. `node:crypto`'s), so that every store makes them alike.
 */
export const newWebhook = (
  request: Pick<Webhook, "projectId" | "url" | "events">,
  now: Date,
  randomBytes: (size: number) => Uint8Array
): Webhook =>
  new Webhook({
    id: webhookIdFrom(randomBytes(webhookIdBytes)),
    projectId: request.projectId,
    url: request.url,
    events: request.events,
    secret: webhookSecretFrom(randomBytes(webhookSecretBytes)),
    createdAt: now
  })

/** A webhook as its project's owner sees it: never its secret. */
export const WebhookResource = Schema.Struct(webhookFields).annotate({ identifier: "Webhook" })
export type WebhookResource = typeof WebhookResource.Type

/** The answer to creating a webhook: the only time its secret is shown. */
export const CreatedWebhookResource = Schema.Struct({
  id: WebhookId,
  url: Schema.String,
  events: WebhookEvents,
  secret: WebhookSecret,
  createdAt: Timestamp
}).annotate({ identifier: "CreatedWebhook" })
export type CreatedWebhookResource = typeof CreatedWebhookResource.Type

export const webhookResource = (webhook: Webhook): WebhookResource => ({
  id: webhook.id,
  url: webhook.url,
  events: webhook.events,
  createdAt: webhook.createdAt
})

export const createdWebhookResource = (webhook: Webhook): CreatedWebhookResource => ({
  id: webhook.id,
  url: webhook.url,
  events: webhook.events,
  secret: webhook.secret,
  createdAt: webhook.createdAt
})

/** What came of one attempt: `retrying` when another follows, `failed` when it was the last. */
export const DeliveryAttemptStatus = Schema.Literals(["delivered", "retrying", "failed"])
export type DeliveryAttemptStatus = typeof DeliveryAttemptStatus.Type

export class DeliveryAttempt extends Schema.Class<DeliveryAttempt>("DeliveryAttempt")(
  Schema.Struct({
    eventId: DomainEventId,
    /** 1 for the first attempt at this event. */
    attempt: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
    status: DeliveryAttemptStatus,
    /** The receiver's answer; null when none came (unreachable, refused). */
    httpStatus: Schema.NullOr(Schema.Int),
    /** Why the attempt failed, in words; null when it was delivered. */
    error: Schema.NullOr(Schema.String),
    at: Timestamp
  }).annotate({ identifier: "DeliveryAttempt" })
) {}

export const WebhookDeliveryStatus = Schema.Literals(["pending", "delivered", "failed"])
export type WebhookDeliveryStatus = typeof WebhookDeliveryStatus.Type

/** One event owed to one webhook: the outbox's queue, in order per webhook and hostname. */
export class WebhookDelivery extends Schema.Class<WebhookDelivery>("WebhookDelivery")(
  Schema.Struct({
    webhookId: WebhookId,
    eventId: DomainEventId,
    /** The event's hostname: deliveries of one hostname to one webhook go in event order. */
    hostname: Hostname,
    /** Attempts made so far. */
    attempts: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
    /** When the first attempt started; the retry window (24 hours) counts from it. */
    firstAttemptAt: Schema.NullOr(Timestamp),
    nextAttemptAt: Timestamp,
    status: WebhookDeliveryStatus
  }).annotate({ identifier: "WebhookDelivery" })
) {}

/** What identifies a delivery: one per webhook and event. */
export type WebhookDeliveryKey = Pick<WebhookDelivery, "webhookId" | "eventId">
