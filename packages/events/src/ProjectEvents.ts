/**
 * The events use cases: a project's events for its owner (another account's project is not found),
 * and one round of forgetting the events past their retention (the application runs the loop).
 */
import type { AccountName } from "@petstore/kernel"
import type { ProjectId } from "@petstore/projects"
import { findOwnedProject } from "@petstore/projects"
import { Clock, Duration, Effect, type Option } from "effect"
import { type DomainEventId, eventRetention } from "./DomainEvent.js"
import { DomainEventRepository } from "./DomainEventRepository.js"

export const listProjectEvents = (
  account: AccountName,
  projectId: ProjectId,
  page: { readonly after: Option.Option<DomainEventId>; readonly limit: number }
) =>
  Effect.gen(function* () {
    yield* findOwnedProject(account, projectId)
    return yield* Effect.flatMap(DomainEventRepository, (events) =>
      events.listByProject({ projectId, ...page })
    )
  })

/** Forgets the events older than the retention (30 days) at the clock's time; how many were forgotten. */
export const purgeExpiredEvents = Effect.gen(function* () {
  const now = yield* Clock.currentTimeMillis
  const upTo = new Date(now - Duration.toMillis(eventRetention))
  return yield* Effect.flatMap(DomainEventRepository, (events) => events.purge(upTo))
})
