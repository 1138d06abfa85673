/**
 * A project's events: the events a domain's changes make (`domainEventTypes`, the one rule every
 * store applies when it writes a change and its events together), read by the project's owner a
 * page at a time, and forgotten after 30 days.
 */
import {
  applyVerdict,
  type CustomDomain,
  Hostname,
  newCustomDomain,
  OwnershipToken,
  verdictFromDns
} from "@petstore/domains"
import {
  DomainEvent,
  DomainEventId,
  DomainEventRepository,
  domainEventTypes,
  listProjectEvents,
  purgeExpiredEvents
} from "@petstore/events"
import { AccountName } from "@petstore/kernel"
import { Project, ProjectId, ProjectRepository } from "@petstore/projects"
import { Effect, Layer, Option } from "effect"

const acme = AccountName.make("acme")
const handbook = ProjectId.make("handbook")
const day = 86_400_000
const now = Date.now()

// The outbox in memory: a store appends a change's events in the same transaction as the change,
// so there is no change without its events and no event without its change.
const events: Array<DomainEvent> = []
const write = (before: CustomDomain | undefined, after: CustomDomain | undefined, at: Date) => {
  const domain = after ?? before
  if (domain === undefined) return
  for (const type of domainEventTypes(before, after)) {
    events.push(
      new DomainEvent({
        id: DomainEventId.make(String(events.length + 1)),
        type,
        occurredAt: at,
        projectId: domain.projectId,
        hostname: domain.hostname,
        data: domain
      })
    )
  }
}

const MemoryEvents = Layer.succeed(
  DomainEventRepository,
  DomainEventRepository.of({
    listByProject: ({ projectId, after, limit }) =>
      Effect.sync(() => {
        const following = events.filter(
          (event) =>
            event.projectId === projectId && (Option.isNone(after) || Number(event.id) > Number(after.value))
        )
        const page = following.slice(0, limit)
        const last = page.at(-1)
        return {
          events: page,
          nextAfter:
            following.length > page.length && last !== undefined ? Option.some(last.id) : Option.none()
        }
      }),
    purge: (upTo) =>
      Effect.sync(() => {
        const kept = events.filter((event) => event.occurredAt.getTime() >= upTo.getTime())
        const forgotten = events.length - kept.length
        events.splice(0, events.length, ...kept)
        return forgotten
      })
  })
)

// Events are read through the project's owner: only findOwned is used here.
const project = new Project({
  id: handbook,
  account: acme,
  plan: "pro",
  lastDeploy: null,
  lastSucceededDeployAt: new Date(now - 50 * day),
  createdAt: new Date(now - 50 * day)
})
const OneProject = Layer.succeed(
  ProjectRepository,
  ProjectRepository.of({
    insert: () => Effect.void,
    findById: () => Effect.succeed(Option.some(project)),
    findOwned: (account, id) =>
      Effect.succeed(account === project.account && id === project.id ? Option.some(project) : Option.none()),
    listOwned: () => Effect.succeed({ projects: [project], nextAfter: Option.none() }),
    update: () => Effect.void
  })
)

// A domain's life, 40 days ago: added, checked before its CNAME existed, checked again once it did.
const target = "cname.example-sites.net"
const addedAt = new Date(now - 40 * day)
const added = newCustomDomain(
  { account: acme, projectId: handbook },
  Hostname.make("docs.example.com"),
  { token: OwnershipToken.make("5f0c2a9e7b3d41c8a6e2f0b9d7c5a3e1"), required: false },
  target,
  addedAt
)
const noCname = verdictFromDns("docs.example.com", "subdomain", target, {
  cname: { _tag: "NoRecords", reason: "nxdomain" },
  addresses: { _tag: "NoRecords", reason: "nxdomain" },
  targetAddresses: { _tag: "NoRecords", reason: "nxdomain" }
})
const checked = applyVerdict(added, noCname, new Date(addedAt.getTime() + 60_000))
const checkedAgain = applyVerdict(checked, noCname, new Date(addedAt.getTime() + 120_000))
const verified = applyVerdict(
  checkedAgain,
  { _tag: "Verified", problems: [] },
  new Date(addedAt.getTime() + 180_000)
)
write(undefined, added, added.createdAt)
write(added, checked, new Date(addedAt.getTime() + 60_000))
write(checked, checkedAgain, new Date(addedAt.getTime() + 120_000)) // the same problem again: no event
write(checkedAgain, verified, new Date(addedAt.getTime() + 180_000))
// Removed today.
write(verified, undefined, new Date(now))

const program = Effect.gen(function* () {
  const first = yield* listProjectEvents(acme, handbook, { after: Option.none(), limit: 2 })
  const second = yield* listProjectEvents(acme, handbook, { after: first.nextAfter, limit: 2 })
  for (const event of [...first.events, ...second.events]) {
    console.log(
      event.id,
      event.type,
      event.data.status,
      event.data.verification.problems.map((p) => p.code)
    )
  }
  console.log(Option.getOrNull(first.nextAfter), Option.getOrNull(second.nextAfter))

  // Another account asks for the project's events: the project is not found, never forbidden.
  const refused = yield* Effect.flip(
    listProjectEvents(AccountName.make("rival"), handbook, { after: Option.none(), limit: 2 })
  )
  console.log(refused._tag)

  // Events are kept 30 days: the ones of 40 days ago are forgotten, today's is kept.
  console.log(
    yield* purgeExpiredEvents,
    events.map((event) => event.type)
  )
})

Effect.runPromise(program.pipe(Effect.provide(Layer.merge(MemoryEvents, OneProject))))

// Output:
// 1 domain.added pending []
// 2 domain.problems_changed pending [ 'record_not_found' ]
// 3 domain.verified verified []
// 4 domain.removed verified []
// 2 null
// ProjectNotFound
// 3 [ 'domain.removed' ]
