/**
 * Webhooks of a project (contract section 5): where its events are POSTed, signed with a secret shown
 * only once, when the webhook is created. Every event stored after a webhook was created, of a type it
 * listens to, becomes a `WebhookDelivery` in the outbox's transaction; the worker's attempts at it are
 * `DeliveryAttempt`s, which the owner reads to see why a receiver got nothing.
 */

import { Hostname } from "@petstore/domains"
import { DomainEventId, DomainEventType } from "@petstore/events"
import { Timestamp } from "@petstore/kernel"
import { ProjectId } from "@petstore/projects"
import { Duration, Schema } from "effect"
import { Base64 } from "effect/encoding"

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

/**
 * Whether deliveries are made: a webhook whose every delivery failed for `PETSTORE_WEBHOOK_DISABLE_AFTER`
 * is `disabled` (contract section 9) and gets no new deliveries until its owner enables it again.
 */
export const WebhookStatus = Schema.Literals(["enabled", "disabled"]).annotate({
  identifier: "WebhookStatus"
})
export type WebhookStatus = typeof WebhookStatus.Type

const failureReasonPattern =
  /^(refused_address|dns_error|timeout|tls_error|connection_error|http_[1-9][0-9]{2})$/

/**
 * Why an attempt failed, as a generic code (contract section 9): never an address, a resolver's message
 * or any other detail of the network the sender stands in, which the webhook's owner must not map.
 */
export const DeliveryFailureReason = Schema.String.pipe(
  Schema.check(
    Schema.isPattern(failureReasonPattern, {
      message: "must be a delivery failure reason",
      toJsonSchema: () => ({ pattern: failureReasonPattern.source })
    })
  ),
  Schema.annotate({
    identifier: "DeliveryFailureReason",
    description:
      "`refused_address` (the name resolved to an address deliveries may not reach), `dns_error`, `timeout`, `tls_error`, `connection_error` (refused or reset) or `http_<status>` (the receiver's answer was not 2xx)."
  })
)
export type DeliveryFailureReason = typeof DeliveryFailureReason.Type

/** The receiver's non-2xx answer as a failure reason. */
export const httpFailureReason = (status: number): DeliveryFailureReason => `http_${status}`

const webhookFields = {
  id: WebhookId,
  url: Schema.String,
  events: WebhookEvents,
  status: WebhookStatus,
  /** When deliveries were stopped; null while enabled. */
  disabledAt: Schema.NullOr(Timestamp),
  /** The last failure's reason when it was disabled; null while enabled. */
  disabledReason: Schema.NullOr(DeliveryFailureReason),
  createdAt: Timestamp
}

// A class's struct carries its identifier too: JSON Schema names a class by its encoded side.
export class Webhook extends Schema.Class<Webhook>("WebhookRecord")(
  Schema.Struct({
    ...webhookFields,
    projectId: ProjectId,
    secret: WebhookSecret,
    /** The secret before the last rotation, still signing beside `secret` until `previousSecretUntil`. */
    previousSecret: Schema.NullOr(WebhookSecret),
    previousSecretUntil: Schema.NullOr(Timestamp),
    /** Since when every attempt failed (the first failure after a success); null after a success. */
    failingSince: Schema.NullOr(Timestamp)
  }).annotate({ identifier: "WebhookRecord" })
) {}

/** The secrets deliveries are signed with at `now`: the current one, and the previous during its overlap. */
export const signingSecretsOf = (webhook: Webhook, now: Date): ReadonlyArray<string> =>
  webhook.previousSecret !== null &&
  webhook.previousSecretUntil !== null &&
  webhook.previousSecretUntil.getTime() > now.getTime()
    ? [webhook.secret, webhook.previousSecret]
    : [webhook.secret]

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
    status: "enabled",
    disabledAt: null,
    disabledReason: null,
    secret: webhookSecretFrom(randomBytes(webhookSecretBytes)),
    previousSecret: null,
    previousSecretUntil: null,
    failingSince: null,
    createdAt: now
  })

/** How long a rotated-out secret still signs deliveries beside the new one (contract section 9). */
export const webhookSecretOverlap = Duration.hours(24)

/**
 * `webhook` with a new secret spelt from `randomBytes`; the one it replaces signs beside it for
 * `webhookSecretOverlap` from `now`. A rotation during an overlap drops the oldest secret: two sign at most.
 */
export const rotatedWebhook = (
  webhook: Webhook,
  now: Date,
  randomBytes: (size: number) => Uint8Array
): Webhook =>
  new Webhook({
    ...webhook,
    secret: webhookSecretFrom(randomBytes(webhookSecretBytes)),
    previousSecret: webhook.secret,
    previousSecretUntil: new Date(now.getTime() + Duration.toMillis(webhookSecretOverlap))
  })

/** `webhook` enabled again by its owner: delivering as if nothing had failed yet. */
export const enabledWebhook = (webhook: Webhook): Webhook =>
  new Webhook({ ...webhook, status: "enabled", disabledAt: null, disabledReason: null, failingSince: null })

/** A webhook as its project's owner sees it: never its secret. */
export const WebhookResource = Schema.Struct(webhookFields).annotate({ identifier: "Webhook" })
export type WebhookResource = typeof WebhookResource.Type

/** The answer to creating a webhook: the only time its secret is shown. */
export const CreatedWebhookResource = Schema.Struct({
  ...webhookFields,
  secret: WebhookSecret
}).annotate({ identifier: "CreatedWebhook" })
export type CreatedWebhookResource = typeof CreatedWebhookResource.Type

/** The answer to rotating a webhook's secret: the only time the new one is shown. */
export const RotatedWebhookSecretResource = Schema.Struct({
  secret: WebhookSecret,
  /** Until when deliveries are signed with the previous secret too (24 hours). */
  previousSecretExpiresAt: Timestamp
}).annotate({ identifier: "RotatedWebhookSecret" })
export type RotatedWebhookSecretResource = typeof RotatedWebhookSecretResource.Type

export const webhookResource = (webhook: Webhook): WebhookResource => ({
  id: webhook.id,
  url: webhook.url,
  events: webhook.events,
  status: webhook.status,
  disabledAt: webhook.disabledAt,
  disabledReason: webhook.disabledReason,
  createdAt: webhook.createdAt
})

export const createdWebhookResource = (webhook: Webhook): CreatedWebhookResource => ({
  ...webhookResource(webhook),
  secret: webhook.secret
})

export const rotatedWebhookSecretResource = (webhook: Webhook): RotatedWebhookSecretResource => ({
  secret: webhook.secret,
  previousSecretExpiresAt: webhook.previousSecretUntil ?? webhook.createdAt
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
    /** Why the attempt failed, as a generic reason; null when it was delivered. */
    error: Schema.NullOr(DeliveryFailureReason),
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
