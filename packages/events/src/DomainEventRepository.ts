/**
 * Port: the read side of the events outbox. Events are written by the stores themselves, in the
 * transaction of the change they tell (`CustomDomainRepository`'s writes, with `domainEventTypes`);
 * this port reads them by project, oldest first, and forgets those past their retention.
 */
import type { StorageError } from "@petstore/kernel"
import type { ProjectId } from "@petstore/projects"
import type { Effect, Option } from "effect"
import { Context } from "effect"
import type { DomainEvent, DomainEventId } from "./DomainEvent.js"

export interface DomainEventQuery {
  readonly projectId: ProjectId
  /** Only events after this one: the cursor of the previous page. */
  readonly after: Option.Option<DomainEventId>
  /** At most this many events (1 to 100). */
  readonly limit: number
}

export interface DomainEventPage {
  readonly events: ReadonlyArray<DomainEvent>
  /** The cursor of the next page, present only when more events follow. */
  readonly nextAfter: Option.Option<DomainEventId>
}

export class DomainEventRepository extends Context.Service<
  DomainEventRepository,
  {
    /** A project's events after the cursor, oldest first (ascending id). */
    readonly listByProject: (query: DomainEventQuery) => Effect.Effect<DomainEventPage, StorageError>
    /** Forgets the events that occurred before `upTo`; how many were forgotten. */
    readonly purge: (upTo: Date) => Effect.Effect<number, StorageError>
  }
>()("@petstore/events/DomainEventRepository") {}
