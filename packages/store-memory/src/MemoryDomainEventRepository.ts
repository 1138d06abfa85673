/**
 * DomainEventRepository in memory: the read side of the events the domain repository appends to the
 * table they share (`MemoryDomainTable`). A project's events are kept in id order, so a page is a
 * slice from the first event after the cursor. Forgetting an event forgets its webhook deliveries.
 */
import { type DomainEvent, DomainEventRepository } from "@petstore/events"
import { Array as Arr, Effect, HashMap, Layer, Option, Ref } from "effect"
import { type DomainTable, eventsOf, MemoryDomainTable } from "./MemoryDomainTable.js"

/** Ids are compared as the numbers they spell (a cursor may be beyond any id stored). */
const isAfter = (event: DomainEvent, cursor: string): boolean => BigInt(event.id) > BigInt(cursor)

const countOf = (events: DomainTable["events"]): number =>
  HashMap.reduce(events, 0, (count, ofProject) => count + ofProject.length)

export const make: Effect.Effect<DomainEventRepository["Service"], never, MemoryDomainTable> = Effect.gen(
  function* () {
    const table = yield* MemoryDomainTable
    return DomainEventRepository.of({
      listByProject: ({ after, limit, projectId }) =>
        Effect.map(Ref.get(table), (current) => {
          const events = eventsOf(current, projectId)
          const from = Option.match(after, {
            onNone: () => 0,
            onSome: (cursor) => {
              const index = events.findIndex((event) => isAfter(event, cursor))
              return index === -1 ? events.length : index
            }
          })
          const page = events.slice(from, from + Math.max(0, limit))
          const moreFollow = from + page.length < events.length
          return {
            events: page,
            nextAfter: moreFollow ? Option.map(Arr.last(page), (last) => last.id) : Option.none()
          }
        }),
      // An event's deliveries (and their attempts) go with it: there is nothing left to send.
      purge: (upTo) =>
        Ref.modify(table, (current): [number, DomainTable] => {
          const kept = HashMap.map(current.events, (events) =>
            events.filter((event) => event.occurredAt.getTime() >= upTo.getTime())
          )
          const keptIds = new Set(
            [...HashMap.values(kept)].flatMap((events) => events.map((event) => event.id))
          )
          return [
            countOf(current.events) - countOf(kept),
            {
              ...current,
              events: HashMap.filter(kept, (events) => events.length > 0),
              deliveries: HashMap.filter(current.deliveries, ({ delivery }) => keptIds.has(delivery.eventId))
            }
          ]
        })
    })
  }
)

export const layer: Layer.Layer<DomainEventRepository, never, MemoryDomainTable> = Layer.effect(
  DomainEventRepository,
  make
)
