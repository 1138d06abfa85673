/**
 * The webhook use cases (contract section 5), written against the ports only. Every operation goes
 * through the project's owner: another account's project is not found, and so are its webhooks. A
 * webhook is checked once, when it is created (its URL by `validateWebhookUrl`, its event types
 * against the known ones); the names in its URL are checked again at every delivery, by the sender.
 */

import { InvalidDomainRequest } from "@petstore/domains"
import { DomainEventType } from "@petstore/events"
import type { AccountName } from "@petstore/kernel"
import { Limits } from "@petstore/kernel"
import type { ProjectId } from "@petstore/projects"
import { findOwnedProject } from "@petstore/projects"
import { Clock, Effect, Option, Result, Schema } from "effect"
import { WebhookNotFound } from "./Errors.js"
import { type WebhookEvents, WebhookId } from "./Webhook.js"
import { WebhookRepository } from "./WebhookRepository.js"
import { validateWebhookUrl, type WebhookUrlOptions } from "./WebhookUrlRule.js"

/** How many of a webhook's latest attempts its owner is shown. */
export const deliveryAttemptsShown = 100

/** A webhook as asked for: its URL and, optionally, the event types it wants (all of them when left out). */
export interface WebhookInput {
  readonly url: string
  readonly events?: ReadonlyArray<string> | null | undefined
}

const isEventType = Schema.is(DomainEventType)

/** The event types a webhook asks for, each once, in the order given; null (every type) when none is given. */
export const validateWebhookEvents = (
  events: ReadonlyArray<string> | null | undefined
): Result.Result<WebhookEvents, string> => {
  if (events === null || events === undefined) return Result.succeed(null)
  if (events.length === 0)
    return Result.fail("must name at least one event type, or be left out for all of them")
  const unknown = events.find((type) => !isEventType(type))
  if (unknown !== undefined) {
    return Result.fail(
      `unknown event type ${JSON.stringify(unknown)}: must be among ${DomainEventType.literals.join(", ")}`
    )
  }
  return Result.succeed([...new Set(events.filter(isEventType))])
}

const invalid = (field: string) => (rule: string) =>
  new InvalidDomainRequest({ message: `${field}: ${rule}` })

/**
 * Creates a webhook: the answer carries its secret, which is never shown again. A project has at most
 * `Limits.webhooksPerProject` webhooks (10 by default): each is a lane of deliveries the worker keeps.
 */
export const createWebhook = (
  account: AccountName,
  projectId: ProjectId,
  input: WebhookInput,
  options: WebhookUrlOptions
) =>
  Effect.gen(function* () {
    yield* findOwnedProject(account, projectId)
    const url = yield* Effect.mapError(
      Effect.fromResult(validateWebhookUrl(input.url, options)),
      invalid("url")
    )
    const events = yield* Effect.mapError(
      Effect.fromResult(validateWebhookEvents(input.events)),
      invalid("events")
    )
    const now = new Date(yield* Clock.currentTimeMillis)
    const { webhooksPerProject } = yield* Limits
    return yield* Effect.flatMap(WebhookRepository, (webhooks) =>
      webhooks.insert({ projectId, url: url.href, events }, now, webhooksPerProject)
    )
  })

/** A project's webhooks, oldest first. */
export const listWebhooks = (account: AccountName, projectId: ProjectId) =>
  Effect.gen(function* () {
    yield* findOwnedProject(account, projectId)
    return yield* Effect.flatMap(WebhookRepository, (webhooks) => webhooks.listByProject(projectId))
  })

/** An id from a path: text that is no webhook id names no webhook. */
const findOwnedWebhook = (account: AccountName, projectId: ProjectId, idText: string) =>
  Effect.gen(function* () {
    yield* findOwnedProject(account, projectId)
    const notFound = new WebhookNotFound({ id: idText })
    const id = yield* Option.match(Schema.decodeUnknownOption(WebhookId)(idText), {
      onNone: () => Effect.fail(notFound),
      onSome: Effect.succeed
    })
    const found = yield* Effect.flatMap(WebhookRepository, (webhooks) => webhooks.find(projectId, id))
    return yield* Option.match(found, { onNone: () => Effect.fail(notFound), onSome: Effect.succeed })
  })

export const getWebhook = (account: AccountName, projectId: ProjectId, id: string) =>
  findOwnedWebhook(account, projectId, id)

/** Deletes a webhook: its pending deliveries are dropped with it. */
export const deleteWebhook = (account: AccountName, projectId: ProjectId, id: string) =>
  Effect.gen(function* () {
    const webhook = yield* findOwnedWebhook(account, projectId, id)
    const removed = yield* Effect.flatMap(WebhookRepository, (webhooks) =>
      webhooks.remove(projectId, webhook.id)
    )
    // Deleted meanwhile by another request: it is gone, as asked, but this request did not find it.
    if (!removed) return yield* new WebhookNotFound({ id })
  })

/** What `PATCH …/webhooks/{id}` may change: only `status`, and only to `enabled`. */
export interface WebhookChange {
  readonly status: "enabled"
}

/**
 * Enables a webhook again (a disabled one gets deliveries of the events stored from now on, and its
 * pending ones are retried); an enabled one stays as it is, its failures forgotten.
 */
export const updateWebhook = (
  account: AccountName,
  projectId: ProjectId,
  id: string,
  _change: WebhookChange
) =>
  Effect.gen(function* () {
    const webhook = yield* findOwnedWebhook(account, projectId, id)
    const enabled = yield* Effect.flatMap(WebhookRepository, (webhooks) =>
      webhooks.enable(projectId, webhook.id)
    )
    return yield* Option.match(enabled, {
      onNone: () => Effect.fail(new WebhookNotFound({ id })),
      onSome: Effect.succeed
    })
  })

/**
 * Gives a webhook a new secret, shown only in this answer; deliveries are signed with the old one too
 * for the next 24 hours, so that receivers can switch without missing one.
 */
export const rotateWebhookSecret = (account: AccountName, projectId: ProjectId, id: string) =>
  Effect.gen(function* () {
    const webhook = yield* findOwnedWebhook(account, projectId, id)
    const now = new Date(yield* Clock.currentTimeMillis)
    const rotated = yield* Effect.flatMap(WebhookRepository, (webhooks) =>
      webhooks.rotateSecret(projectId, webhook.id, now)
    )
    return yield* Option.match(rotated, {
      onNone: () => Effect.fail(new WebhookNotFound({ id })),
      onSome: Effect.succeed
    })
  })

/** A webhook's latest attempts (at most `deliveryAttemptsShown`), newest first. */
export const listDeliveryAttempts = (account: AccountName, projectId: ProjectId, id: string) =>
  Effect.gen(function* () {
    const webhook = yield* findOwnedWebhook(account, projectId, id)
    return yield* Effect.flatMap(WebhookRepository, (webhooks) =>
      webhooks.listAttempts(projectId, webhook.id, deliveryAttemptsShown)
    )
  })
