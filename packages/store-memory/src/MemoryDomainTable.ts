/**
 * The custom domains of the in-memory store and the events of their changes (the outbox), in one
 * `Ref`: a change and its events are one atomic update, so no reader ever sees the one without the
 * other. Shared by the domain repository, which writes both, and the event repository, which reads
 * and forgets events.
 */
import {
  type CustomDomain,
  type CustomDomainKey,
  type CustomDomainLease,
  DomainEvent,
  DomainEventId,
  domainEventTypes,
  type ProjectId
} from "@petstore/custom-domains"
import { Context, HashMap, Layer, Option, Ref } from "effect"

export interface StoredDomain {
  readonly domain: CustomDomain
  /** Insertion order, for listing. */
  readonly position: number
  readonly lease: Option.Option<CustomDomainLease>
}

export interface DomainTable {
  readonly nextPosition: number
  readonly domains: HashMap.HashMap<string, StoredDomain>
  /** The number the next event's id spells. */
  readonly nextEventNumber: number
  /** Each project's events, in the order they were stored (ascending id). */
  readonly events: HashMap.HashMap<ProjectId, ReadonlyArray<DomainEvent>>
}

export class MemoryDomainTable extends Context.Service<MemoryDomainTable, Ref.Ref<DomainTable>>()(
  "@petstore/store-memory/MemoryDomainTable"
) {}

export const layer: Layer.Layer<MemoryDomainTable> = Layer.effect(
  MemoryDomainTable,
  Ref.make<DomainTable>({
    nextPosition: 0,
    domains: HashMap.empty(),
    nextEventNumber: 1,
    events: HashMap.empty()
  })
)

// Neither a project id nor a hostname has a line break, so the pair's text names it alone.
export const keyOf = (key: CustomDomainKey): string => `${key.projectId}\n${key.hostname}`

/** A project's events, oldest first. */
export const eventsOf = (table: DomainTable, projectId: ProjectId): ReadonlyArray<DomainEvent> =>
  Option.getOrElse(HashMap.get(table.events, projectId), () => [])

/**
 * `table` with the events of a domain's change from `before` to `after` appended (`before` undefined:
 * added; `after` undefined: removed), occurred at `occurredAt`. `data` is the domain after the change,
 * or as it was for a removal; the event keeps its public fields only.
 */
export const withEventsOf = (
  table: DomainTable,
  before: CustomDomain | undefined,
  after: CustomDomain | undefined,
  occurredAt: Date
): DomainTable => {
  const domain = after ?? before
  const types = domainEventTypes(before, after)
  if (domain === undefined || types.length === 0) return table
  const appended = types.map(
    (type, n) =>
      new DomainEvent({
        id: DomainEventId.make(String(table.nextEventNumber + n)),
        type,
        occurredAt,
        projectId: domain.projectId,
        hostname: domain.hostname,
        data: domain
      })
  )
  return {
    ...table,
    nextEventNumber: table.nextEventNumber + appended.length,
    events: HashMap.set(table.events, domain.projectId, [...eventsOf(table, domain.projectId), ...appended])
  }
}
