/**
 * The outbox's write side: the events of a change to domains are appended to `domain_events` in the
 * statement (so the transaction) that makes the change, and queued at once as deliveries to the
 * project's webhooks (`webhook_deliveries`). Every writer of domains goes through here: an insert, a
 * decided write, a round's completed checks, a removal. A write refused changes nothing, so appends
 * nothing. The events port reads them (`PgDomainEventRepository`), the delivery round sends them
 * (`PgWebhookDeliveryRepository`).
 *
 * A change's events are `domainEventTypes` of the domain before and after it, each carrying the
 * domain's public resource (the encoded domain without `account`, `issuance` and `version`): after
 * the change, or before it when the domain is gone.
 */
import { CustomDomain } from "@petstore/domains"
import { type DomainEventType, domainEventTypes } from "@petstore/events"
import { Effect, Schema } from "effect"
import type { SqlClient, Statement } from "effect/sql"
import { SqlSchema } from "effect/sql"
import { LockSpace } from "../internal/AdvisoryLocks.js"

/** A write's events as the outbox reads them (JSON text): the events, and the projects whose order they keep. */
export const OutboxInput = Schema.Struct({ events: Schema.String, projects: Schema.String })
export type OutboxInput = typeof OutboxInput.Type

/** A change from before to after (undefined: absent, as before an insert or after a removal). */
export type DomainChange = readonly [before: CustomDomain | undefined, after: CustomDomain | undefined]

/** Changes encoded once each: the domains still there after them, and the events they tell. */
export interface EncodedChanges {
  /** The encoded domains after the changes (those not removed), in the changes' order. */
  readonly after: ReadonlyArray<typeof CustomDomain.Encoded>
  readonly events: OutboxInput
}

const encodeDomains = Schema.encodeEffect(Schema.Array(CustomDomain))

/**
 * The events of `changes`, in their order, and the domains after them, each domain encoded once:
 * what a write stores and what its events carry come from the same encoding.
 */
export const encodeChanges = (changes: ReadonlyArray<DomainChange>) => {
  const told = changes.flatMap(([before, after]) => {
    const domain = after ?? before
    return domain === undefined ? [] : [{ domain, after, types: domainEventTypes(before, after) }]
  })
  return Effect.map(encodeDomains(told.map(({ domain }) => domain)), (encoded): EncodedChanges => {
    const stored: Array<typeof CustomDomain.Encoded> = []
    const events: Array<{ projectId: string; hostname: string; type: DomainEventType; data: unknown }> = []
    told.forEach(({ after, domain, types }, index) => {
      const encodedDomain = encoded[index]
      if (encodedDomain === undefined) return
      if (after !== undefined) stored.push(encodedDomain)
      const { account: _account, issuance: _issuance, version: _version, ...resource } = encodedDomain
      for (const type of types)
        events.push({ projectId: domain.projectId, hostname: domain.hostname, type, data: resource })
    })
    return {
      after: stored,
      events: {
        events: JSON.stringify(events),
        projects: JSON.stringify([...new Set(events.map((event) => event.projectId))])
      }
    }
  })
}

/** The outbox's part of the statements of `sql`. */
export const makeOutbox = (sql: SqlClient.SqlClient) => {
  /**
   * The `with` list that appends `events`, as occurred at `occurredAt`, in their order, those for
   * which `onlyIf` holds (`appended`), and queues their deliveries (`queued`). The projects to lock
   * travel apart (`projects`), so that a round's events are parsed once. The outbox runs after the
   * statement's own write (PostgreSQL completes the sub-statements the main query does not read
   * last), so row locks are always taken before the project's lock, by every writer.
   *
   * Ids are given as rows come, and the rows come in the array's order. Readers page by id, so a
   * project's events must become visible in id order: an id taken by one transaction and committed
   * after a higher one would be skipped for good by a reader already past it. So each project's
   * events are written under a lock of that project held to the end of the transaction (taken,
   * projects in one order, before any id is), and a project's writers commit in the order of their
   * ids; the deliveries of a webhook and hostname become visible in that order too.
   *
   * Each appended event is queued for every enabled webhook of its project that listens to its type
   * (`events` null: every type), due when it occurred; a disabled one gets no new deliveries. The
   * webhooks are looked up per appended row, so after the project's lock is held, and locked as the
   * deliveries' reference to them would (`for key share`): one removed meanwhile is skipped instead
   * of failing the write with a reference to nothing. A webhook gets the events of the statements
   * that start after it is stored.
   */
  const withEvents = (
    { events, projects }: OutboxInput,
    occurredAt: Date,
    onlyIf: Statement.Fragment = sql``
  ) => sql`
    appended as (
      insert into domain_events (project_id, hostname, type, occurred_at, data)
      select event."projectId", event.hostname, event.type, ${occurredAt}, event.data
      from rows from (jsonb_to_recordset(${events}::jsonb)
          as ("projectId" text, hostname text, type text, data jsonb))
        with ordinality as event("projectId", hostname, type, data, n)
      where (
        select count(*) from (
          select pg_advisory_xact_lock(${LockSpace.projectEvents}, hashtext(project.id))
          from (
            select distinct id from jsonb_array_elements_text(${projects}::jsonb) as id
            order by 1) as project) as locked) >= 0
        ${onlyIf}
      order by event.n
      returning id, project_id, hostname, type, occurred_at),
    queued as (
      insert into webhook_deliveries (webhook_id, event_id, hostname, attempts, first_attempt_at,
        next_attempt_at, status)
      select webhook.id, appended.id, appended.hostname, 0, null, appended.occurred_at, 'pending'
      from appended cross join lateral (
        select id from webhooks
        where webhooks.project_id = appended.project_id and webhooks.status = 'enabled'
          and (webhooks.events is null or appended.type = any(webhooks.events))
        for key share) as webhook)`

  /** Appends `events` and queues their deliveries in a statement of their own (a removal's, after its delete). */
  const append = SqlSchema.void({
    Request: Schema.Struct({ events: OutboxInput, occurredAt: Schema.Date }),
    execute: ({ events, occurredAt }) => sql`with ${withEvents(events, occurredAt)} select 1`
  })

  return { withEvents, append }
}
