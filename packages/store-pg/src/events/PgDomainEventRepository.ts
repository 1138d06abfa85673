/**
 * DomainEventRepository on PostgreSQL: the read side of `domain_events`, which every write of domains
 * appends to in its own transaction (`Outbox`). A project's events are read by keyset on their id
 * (the index on project and id), one more than the page asks, to know whether more follow; every
 * row is decoded into a `DomainEvent` again, so a row the domain refuses is a `StorageError` naming
 * its column, never an event handed on. Retention deletes by time (the index on `occurred_at`).
 */
import { CustomDomainResource } from "@petstore/domains"
import { DomainEvent, type DomainEventId, DomainEventRepository, DomainEventType } from "@petstore/events"
import { ProjectId } from "@petstore/projects"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { IsoFromDate } from "../internal/Instants.js"
import { keysetPage, rowLimit } from "../internal/Paging.js"
import { storageOperation } from "../internal/storageOperation.js"

/** A `domain_events` row as selected below (the id as text, jsonb parsed), decoded into a `DomainEvent`. */
const DomainEventFromRow = Schema.Struct({
  id: Schema.String,
  type: DomainEventType,
  occurredAt: IsoFromDate,
  projectId: Schema.String,
  hostname: Schema.String,
  data: Schema.toEncoded(CustomDomainResource)
}).pipe(Schema.decodeTo(DomainEvent))

/** The largest id PostgreSQL's `bigint` holds: no event comes after a cursor beyond it. */
const maxId = 2n ** 63n - 1n

export const make: Effect.Effect<DomainEventRepository["Service"], never, SqlClient.SqlClient> = Effect.gen(
  function* () {
    const sql = yield* SqlClient.SqlClient

    const list = SqlSchema.findAll({
      Request: Schema.Struct({
        projectId: ProjectId,
        after: Schema.NullOr(Schema.String),
        limit: Schema.Int
      }),
      Result: DomainEventFromRow,
      execute: ({ after, limit, projectId }) => sql`
        select id::text as id, type, occurred_at as "occurredAt", project_id as "projectId", hostname, data
        from domain_events
        where project_id = ${projectId} ${after === null ? sql`` : sql`and id > ${after}::bigint`}
        order by domain_events.id
        limit ${limit}`
    })

    const purge = SqlSchema.findOne({
      Request: Schema.Date,
      Result: Schema.Struct({ count: Schema.Int }),
      execute: (upTo) => sql`
        with purged as (delete from domain_events where occurred_at < ${upTo} returning 1)
        select count(*)::int as count from purged`
    })

    return DomainEventRepository.of({
      listByProject: ({ after, limit, projectId }) => {
        const size = rowLimit(limit)
        const beyondEveryId = Option.exists(after, (cursor) => BigInt(cursor) >= maxId)
        return (
          beyondEveryId
            ? Effect.succeed([])
            : list({ projectId, after: Option.getOrNull(after), limit: size + 1 })
        ).pipe(
          Effect.map((found) => {
            const { nextAfter, rows } = keysetPage(found, size, (event): DomainEventId => event.id)
            return { events: rows, nextAfter }
          }),
          storageOperation("DomainEventRepository.listByProject")
        )
      },
      purge: (upTo) =>
        purge(upTo).pipe(
          Effect.map(({ count }) => count),
          storageOperation("DomainEventRepository.purge")
        )
    })
  }
)

export const layer: Layer.Layer<DomainEventRepository, never, SqlClient.SqlClient> = Layer.effect(
  DomainEventRepository,
  make
)
