/**
 * @petstore/events: the events of a project's domains and certificates: the event record and its types, the
 * events port (the outbox's read side), listing and purging events. Pure: no I/O and no adapter; adapters
 * implement the ports.
 */
export {
  DomainEvent,
  DomainEventId,
  DomainEventType,
  domainEventTypes,
  eventRetention
} from "./DomainEvent.js"
export {
  type DomainEventPage,
  type DomainEventQuery,
  DomainEventRepository
} from "./DomainEventRepository.js"
export { listProjectEvents, purgeExpiredEvents } from "./ProjectEvents.js"
