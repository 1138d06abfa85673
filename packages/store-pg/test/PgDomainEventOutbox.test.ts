/**
 * The outbox on a real PostgreSQL server and on the embedded PGlite: a domain's change and its events
 * are one transaction. While the events table refuses every row, each write that would tell something
 * fails as a storage failure and changes nothing (no change without its event), and a write that
 * tells nothing still goes through; once events are accepted again, the same writes are made and told.
 * A webhook removed while an event of its project is appended is skipped by the fan-out, never a
 * reason for the domain's write to fail.
 */
import { expect, layer } from "@effect/vitest"
import {
  applyVerdict,
  CustomDomainRepository,
  CustomDomainResource,
  restartVerificationWindow
} from "@petstore/domains"
import { DomainEventRepository } from "@petstore/events"
import { defaultLimits, StorageError } from "@petstore/kernel"
import { ProjectRepository } from "@petstore/projects"
import { ContractFixtures } from "@petstore/testing"
import { WebhookDeliveryRepository, WebhookRepository } from "@petstore/webhooks"
import { Effect, Fiber, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import {
  PgDomainEventRepository,
  PgDomainRepository,
  PgMigrations,
  PgProjectRepository,
  PgWebhookDeliveryRepository,
  PgWebhookRepository
} from "../src/index.js"
import { bothServers } from "./bothServers.js"
import { testCipher } from "./testCipher.js"

const { decidedFromStored, freshHostname, freshProject, later, newDomainOf, t0 } = ContractFixtures
const minute = 60_000

for (const [name, client] of bothServers) {
  const store = Layer.mergeAll(
    PgProjectRepository.layer,
    PgDomainRepository.layer,
    PgDomainEventRepository.layer,
    PgWebhookRepository.layer,
    PgWebhookDeliveryRepository.layer
  ).pipe(Layer.provide(PgMigrations.layer), Layer.provideMerge(client), Layer.provide(testCipher))

  layer(store, { excludeTestServices: true, timeout: 120_000 })(`the events outbox on ${name}`, (it) => {
    it.effect("a change whose events cannot be stored is not made; one that tells nothing is", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const domains = yield* CustomDomainRepository
        const events = yield* DomainEventRepository
        const project = yield* freshProject()
        yield* Effect.flatMap(ProjectRepository, (projects) => projects.insert(project, defaultLimits))
        const domain = yield* newDomainOf(project, yield* freshHostname(), t0)
        yield* domains.insert(domain, defaultLimits)
        const holder = "outbox-worker"
        const leased = yield* domains.claimDue(later(t0, minute), 10, {
          holder,
          until: later(t0, 60 * minute)
        })
        expect(leased.map((found) => found.hostname)).toEqual([domain.hostname])
        const encode = Schema.encodeSync(CustomDomainResource)
        const stored = () =>
          Effect.map(domains.findInProject(project.id, domain.hostname), Option.map(encode))
        const told = () =>
          Effect.map(
            events.listByProject({ projectId: project.id, after: Option.none(), limit: 100 }),
            (page) => page.events.map((event) => event.type)
          )

        yield* sql`alter table domain_events add constraint refuse_every_event check (false) not valid`
        const verified = applyVerdict(domain, { _tag: "Verified", problems: [] }, later(t0, minute))
        const other = yield* newDomainOf(project, yield* freshHostname(), t0)
        const failures = [
          ["CustomDomainRepository.insert", yield* Effect.flip(domains.insert(other, defaultLimits))],
          ["CustomDomainRepository.update", yield* Effect.flip(domains.update(verified))],
          [
            "CustomDomainRepository.completeChecks",
            yield* Effect.flip(domains.completeChecks([{ claimed: domain, result: verified }], holder))
          ],
          ["CustomDomainRepository.remove", yield* Effect.flip(domains.remove(project.id, domain.hostname))]
        ] as const
        for (const [operation, failure] of failures) {
          expect(failure).toBeInstanceOf(StorageError)
          if (failure instanceof StorageError) expect(failure.operation).toBe(operation)
        }
        expect(yield* domains.findInProject(project.id, other.hostname)).toEqual(Option.none())
        expect(yield* stored()).toEqual(Option.some(encode(domain)))
        // The lease was not ended either: the worker still holds it.
        expect(
          yield* domains.claimDue(later(t0, 2 * minute), 10, {
            holder: "another",
            until: later(t0, 3 * minute)
          })
        ).toEqual([])

        yield* sql`alter table domain_events drop constraint refuse_every_event`
        expect(yield* domains.completeChecks([{ claimed: domain, result: verified }], holder)).toEqual([
          { projectId: project.id, hostname: domain.hostname }
        ])
        expect(yield* stored()).toEqual(Option.some(encode(verified)))
        expect(yield* told()).toEqual(["domain.added", "domain.verified"])

        // Verify clicked again moves only the window: nothing to tell, so nothing to refuse.
        yield* sql`alter table domain_events add constraint refuse_every_event check (false) not valid`
        const clicked = yield* decidedFromStored(restartVerificationWindow(verified, later(t0, 3 * minute)))
        expect(yield* domains.update(clicked)).toBe(true)
        expect(yield* stored()).toEqual(Option.some(encode(clicked)))
        yield* sql`alter table domain_events drop constraint refuse_every_event`
        expect(Option.isSome(yield* domains.remove(project.id, domain.hostname))).toBe(true)
        expect(yield* told()).toEqual(["domain.added", "domain.verified", "domain.removed"])
      })
    )

    it.effect("a project's events become visible in the order of their ids, so paging skips none", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const domains = yield* CustomDomainRepository
        const events = yield* DomainEventRepository
        const project = yield* freshProject()
        yield* Effect.flatMap(ProjectRepository, (projects) => projects.insert(project, defaultLimits))
        const first = yield* newDomainOf(project, yield* freshHostname(), t0)
        const second = yield* newDomainOf(project, yield* freshHostname(), t0)
        const listed = () =>
          Effect.map(
            events.listByProject({ projectId: project.id, after: Option.none(), limit: 100 }),
            (page) => page.events.map((event) => event.hostname)
          )
        // The first addition's transaction stays open after its event has taken its id.
        const slow = yield* Effect.forkChild(
          sql.withTransaction(
            Effect.andThen(domains.insert(first, defaultLimits), Effect.sleep("600 millis"))
          )
        )
        yield* Effect.sleep("150 millis")
        const quick = yield* Effect.forkChild(domains.insert(second, defaultLimits))
        yield* Effect.sleep("250 millis")
        // A reader now must not see the second event without the first: it would page past it.
        expect(yield* listed()).not.toEqual([second.hostname])
        yield* Fiber.join(slow)
        yield* Fiber.join(quick)
        expect(yield* listed()).toEqual([first.hostname, second.hostname])
      })
    )

    it.effect("a webhook removed while an event is appended is skipped: the write goes through", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const domains = yield* CustomDomainRepository
        const webhooks = yield* WebhookRepository
        const project = yield* freshProject()
        yield* Effect.flatMap(ProjectRepository, (projects) => projects.insert(project, defaultLimits))
        const domain = yield* newDomainOf(project, yield* freshHostname(), t0)
        const newWebhook = { projectId: project.id, url: "https://hooks.example.test/race", events: null }
        const removed = yield* webhooks.insert(newWebhook, t0, 10)
        const kept = yield* webhooks.insert(newWebhook, t0, 10)
        // The removal's transaction stays open after the webhook's row is deleted; the addition's
        // event is appended meanwhile, and its fan-out meets the row being deleted.
        const removal = yield* Effect.forkChild(
          sql.withTransaction(
            Effect.tap(webhooks.remove(project.id, removed.id), () => Effect.sleep("600 millis"))
          )
        )
        yield* Effect.sleep("150 millis")
        const addition = yield* Effect.forkChild(domains.insert(domain, defaultLimits))
        expect(yield* Fiber.join(removal)).toBe(true)
        yield* Fiber.join(addition)

        expect(Option.isSome(yield* domains.findInProject(project.id, domain.hostname))).toBe(true)
        const owed = yield* Effect.flatMap(WebhookDeliveryRepository, (deliveries) =>
          deliveries.claimDue(later(t0, 10 * 365 * 24 * 60 * minute), 100, {
            holder: "race",
            until: later(t0, 11 * 365 * 24 * 60 * minute)
          })
        )
        expect(owed.map(({ delivery, event }) => [delivery.webhookId, event.type])).toEqual([
          [kept.id, "domain.added"]
        ])
      })
    )
  })
}
