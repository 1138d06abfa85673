/**
 * In-memory fakes of the custom-domain ports for use-case tests: Ref-based project and domain
 * repositories (with leases, as the port describes them), a table-driven DNS resolver and fixed
 * platform settings. `FakeWorld` gives a test the knobs: DNS answers, lookups made, calls recorded.
 */
import { Context, Effect, Layer, Option, Ref } from "effect"
import {
  type CustomDomain,
  type DnsAnswer,
  DnsResolver,
  type DomainConfig,
  type DomainLease,
  DomainRepository,
  HostnameTaken,
  PlatformSettings,
  type Project,
  ProjectIdTaken,
  ProjectRepository,
  StorageError
} from "../../src/index.js"

export const platformDomain = "docs-platform.net"
export const cnameTarget = "cname.docs-platform.net"
/** The target's own addresses: what an ALIAS/ANAME record at an apex resolves to. */
export const targetAddresses = ["203.0.113.10", "2001:db8::10"] as const

export const nxdomain: DnsAnswer<string> = { _tag: "NoRecords", reason: "nxdomain" }
export const servfail: DnsAnswer<string> = { _tag: "Failure", reason: "servfail", detail: "upstream failed" }
export const records = (first: string, ...rest: Array<string>): DnsAnswer<string> => ({
  _tag: "Records",
  records: [first, ...rest]
})

export interface DnsEntry {
  readonly cname?: DnsAnswer<string>
  readonly addresses?: DnsAnswer<string>
}

/** DNS as a correctly configured owner would have it. */
export const cnameToTarget: DnsEntry = { cname: records(cnameTarget), addresses: records(...targetAddresses) }
export const aliasToTarget: DnsEntry = { cname: nxdomain, addresses: records(...targetAddresses) }

export interface ClaimCall {
  readonly now: Date
  readonly limit: number
  readonly lease: DomainLease
}

interface DomainRow {
  readonly domain: CustomDomain
  readonly lease: DomainLease | null
}

export interface WorldControls {
  /** Sets what DNS answers for `name` (any name not set answers NXDOMAIN). */
  readonly setDns: (name: string, entry: DnsEntry) => Effect.Effect<void>
  /** Runs `effect` while `name`'s CNAME is being looked up (between a claim and its completion). */
  readonly duringLookup: (name: string, effect: Effect.Effect<void>) => Effect.Effect<void>
  /** Every lookup made, as "cname <name>" or "addresses <name>". */
  readonly lookups: Effect.Effect<ReadonlyArray<string>>
  readonly claimCalls: Effect.Effect<ReadonlyArray<ClaimCall>>
  readonly releases: Effect.Effect<ReadonlyArray<string>>
  readonly leaseOf: (hostname: string) => Effect.Effect<DomainLease | null>
  /** Hands the lease of `hostname` to another holder (a worker that took an expired lease over). */
  readonly stealLease: (hostname: string, holder: string) => Effect.Effect<void>
  /** Makes `completeCheck` of `hostname` fail with a storage error. */
  readonly failCompletionOf: (hostname: string) => Effect.Effect<void>
  /** Removes a domain behind the use cases' back (another request deleting it). */
  readonly removeDirectly: (hostname: string) => Effect.Effect<void>
  readonly storedDomain: (hostname: string) => Effect.Effect<Option.Option<CustomDomain>>
  readonly storedConfig: (projectId: string) => Effect.Effect<Option.Option<DomainConfig>>
}

export class FakeWorld extends Context.Tag("test/FakeWorld")<FakeWorld, WorldControls>() {}

export const fakeWorld: Layer.Layer<
  FakeWorld | ProjectRepository | DomainRepository | DnsResolver | PlatformSettings
> = Layer.effectContext(
  Effect.gen(function* () {
    const projects = yield* Ref.make(new Map<string, Project>())
    const configs = yield* Ref.make(new Map<string, DomainConfig>())
    const domains = yield* Ref.make(new Map<string, DomainRow>())
    const dns = yield* Ref.make(
      new Map<string, DnsEntry>([[cnameTarget, { cname: nxdomain, addresses: records(...targetAddresses) }]])
    )
    const hooks = yield* Ref.make(new Map<string, Effect.Effect<void>>())
    const lookups = yield* Ref.make<ReadonlyArray<string>>([])
    const claimCalls = yield* Ref.make<ReadonlyArray<ClaimCall>>([])
    const releases = yield* Ref.make<ReadonlyArray<string>>([])
    const failingCompletions = yield* Ref.make(new Set<string>())

    const setRow = (hostname: string, row: DomainRow) =>
      Ref.update(domains, (map) => new Map(map).set(hostname, row))
    const deleteRow = (hostname: string) =>
      Ref.update(domains, (map) => {
        const next = new Map(map)
        next.delete(hostname)
        return next
      })

    const lookup = (kind: "cname" | "addresses", name: string) =>
      Effect.gen(function* () {
        yield* Ref.update(lookups, (all) => [...all, `${kind} ${name}`])
        if (kind === "cname") {
          const hook = (yield* Ref.get(hooks)).get(name)
          if (hook !== undefined) yield* hook
        }
        const entry = (yield* Ref.get(dns)).get(name.toLowerCase())
        return entry?.[kind] ?? nxdomain
      })

    const projectRepository: ProjectRepository["Type"] = {
      insert: (project) =>
        Effect.flatMap(Ref.get(projects), (map) =>
          map.has(project.id)
            ? Effect.fail(new ProjectIdTaken({ id: project.id }))
            : Ref.update(projects, (m) => new Map(m).set(project.id, project))
        ),
      findById: (id) => Effect.map(Ref.get(projects), (map) => Option.fromNullable(map.get(id))),
      findOwned: (account, id) =>
        Effect.map(Ref.get(projects), (map) =>
          Option.filter(Option.fromNullable(map.get(id)), (project) => project.account === account)
        ),
      update: (project) => Ref.update(projects, (m) => new Map(m).set(project.id, project)),
      findConfig: (id) => Effect.map(Ref.get(configs), (map) => Option.fromNullable(map.get(id))),
      saveConfig: (id, config) => Ref.update(configs, (m) => new Map(m).set(id, config))
    }

    const domainRepository: DomainRepository["Type"] = {
      insert: (domain) =>
        Effect.flatMap(Ref.get(domains), (map) =>
          map.has(domain.hostname)
            ? Effect.fail(new HostnameTaken({ hostname: domain.hostname }))
            : setRow(domain.hostname, { domain, lease: null })
        ),
      findByHostname: (hostname) =>
        Effect.map(Ref.get(domains), (map) =>
          Option.map(Option.fromNullable(map.get(hostname)), (r) => r.domain)
        ),
      listByProject: (projectId) =>
        Effect.map(Ref.get(domains), (map) =>
          Array.from(map.values(), (row) => row.domain).filter((domain) => domain.projectId === projectId)
        ),
      update: (domain) =>
        Effect.flatMap(Ref.get(domains), (map) => {
          const row = map.get(domain.hostname)
          return row === undefined
            ? Effect.succeed(false)
            : Effect.as(setRow(domain.hostname, { ...row, domain }), true)
        }),
      remove: (projectId, hostname) =>
        Effect.flatMap(Ref.get(domains), (map) =>
          map.get(hostname)?.domain.projectId === projectId
            ? Effect.as(deleteRow(hostname), true)
            : Effect.succeed(false)
        ),
      claimDue: (now, limit, lease) =>
        Effect.gen(function* () {
          yield* Ref.update(claimCalls, (all) => [...all, { now, limit, lease }])
          const due = Array.from((yield* Ref.get(domains)).values())
            .filter(
              (row) =>
                row.domain.verification.nextCheckAt !== null &&
                row.domain.verification.nextCheckAt.getTime() <= now.getTime() &&
                (row.lease === null || row.lease.until.getTime() <= now.getTime())
            )
            .sort(
              (a, b) =>
                (a.domain.verification.nextCheckAt?.getTime() ?? 0) -
                (b.domain.verification.nextCheckAt?.getTime() ?? 0)
            )
            .slice(0, limit)
          for (const row of due) yield* setRow(row.domain.hostname, { domain: row.domain, lease })
          return due.map((row) => row.domain)
        }),
      releaseLease: (hostname, holder) =>
        Effect.gen(function* () {
          yield* Ref.update(releases, (all) => [...all, hostname])
          const row = (yield* Ref.get(domains)).get(hostname)
          if (row?.lease?.holder === holder) yield* setRow(hostname, { ...row, lease: null })
        }),
      completeCheck: (domain, holder) =>
        Effect.gen(function* () {
          if ((yield* Ref.get(failingCompletions)).has(domain.hostname)) {
            return yield* new StorageError({ operation: "completeCheck", cause: new Error("disk full") })
          }
          const row = (yield* Ref.get(domains)).get(domain.hostname)
          if (row === undefined || row.lease?.holder !== holder) return false
          yield* setRow(domain.hostname, { domain, lease: null })
          return true
        })
    }

    const controls: WorldControls = {
      setDns: (name, entry) => Ref.update(dns, (m) => new Map(m).set(name.toLowerCase(), entry)),
      duringLookup: (name, effect) => Ref.update(hooks, (m) => new Map(m).set(name, effect)),
      lookups: Ref.get(lookups),
      claimCalls: Ref.get(claimCalls),
      releases: Ref.get(releases),
      leaseOf: (hostname) => Effect.map(Ref.get(domains), (map) => map.get(hostname)?.lease ?? null),
      stealLease: (hostname, holder) =>
        Effect.flatMap(Ref.get(domains), (map) => {
          const row = map.get(hostname)
          return row === undefined
            ? Effect.void
            : setRow(hostname, { ...row, lease: { holder, until: new Date(8.64e15) } })
        }),
      failCompletionOf: (hostname) => Ref.update(failingCompletions, (set) => new Set(set).add(hostname)),
      removeDirectly: deleteRow,
      storedDomain: (hostname) =>
        Effect.map(Ref.get(domains), (map) =>
          Option.map(Option.fromNullable(map.get(hostname)), (r) => r.domain)
        ),
      storedConfig: (projectId) =>
        Effect.map(Ref.get(configs), (map) => Option.fromNullable(map.get(projectId)))
    }

    return Context.make(FakeWorld, controls).pipe(
      Context.add(ProjectRepository, projectRepository),
      Context.add(DomainRepository, domainRepository),
      Context.add(DnsResolver, {
        cname: (name) => lookup("cname", name),
        addresses: (name) => lookup("addresses", name),
        caa: () => Effect.succeed({ _tag: "NoRecords", reason: "nodata" } as const)
      }),
      Context.add(PlatformSettings, { platformDomain, cnameTarget })
    )
  })
)
