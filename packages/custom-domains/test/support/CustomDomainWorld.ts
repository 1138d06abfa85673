/**
 * In-memory fakes of the custom-domain ports for use-case tests: Ref-based project and domain
 * repositories (with leases, as the port describes them), a table-driven DNS resolver, a scripted
 * certificate authority with its certificate store, and fixed platform settings. `FakeWorld` gives
 * a test the knobs: DNS answers, the CA's behaviour, lookups made, calls recorded.
 */

import { StorageError } from "@petstore/kernel"
import { Clock, Context, Duration, Effect, Layer, Option, Redacted, Ref } from "effect"
import {
  type CaaRecord,
  CertificateIssuer,
  CertificateIssuerError,
  CertificateStore,
  type CustomDomain,
  type CustomDomainLease,
  CustomDomainRepository,
  type DnsAnswer,
  DnsResolver,
  type DomainConfig,
  type Hostname,
  HostnameTaken,
  OrderRef,
  type OrderState,
  PlatformSettings,
  type Project,
  ProjectIdTaken,
  ProjectRepository,
  type StoredCertificate,
  workDueAt
} from "../../src/index.js"

const platformDomain = "docs-platform.net"
export const cnameTarget = "cname.docs-platform.net"
/** The target's own addresses: what an ALIAS/ANAME record at an apex resolves to. */
const targetAddresses = ["203.0.113.10", "2001:db8::10"] as const

export const nxdomain: DnsAnswer<string> = { _tag: "NoRecords", reason: "nxdomain" }
export const servfail: DnsAnswer<string> = { _tag: "Failure", reason: "servfail", detail: "upstream failed" }
export const records = (first: string, ...rest: Array<string>): DnsAnswer<string> => ({
  _tag: "Records",
  records: [first, ...rest]
})

export interface DnsEntry {
  readonly cname?: DnsAnswer<string>
  readonly addresses?: DnsAnswer<string>
  readonly caa?: DnsAnswer<CaaRecord>
}

/**
 * How the fake CA behaves: `issues` answers an order Pending on its first poll and Valid on the
 * next; `issuesAtOnce` Valid on the first (like the local CA); `stalls` keeps it Pending; `refuses` makes it Invalid; `unreachable` fails every call.
 */
type CaBehaviour = "issues" | "issuesAtOnce" | "stalls" | "refuses" | "unreachable"

export const caIdentifier = "letsencrypt.org"
export const certificateLifetime = Duration.days(90)

/** DNS as a correctly configured owner would have it. */
export const cnameToTarget: DnsEntry = { cname: records(cnameTarget), addresses: records(...targetAddresses) }
export const aliasToTarget: DnsEntry = { cname: nxdomain, addresses: records(...targetAddresses) }

interface ClaimCall {
  readonly now: Date
  readonly limit: number
  readonly lease: CustomDomainLease
}

interface DomainRow {
  readonly domain: CustomDomain
  readonly lease: CustomDomainLease | null
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
  readonly leaseOf: (hostname: string) => Effect.Effect<CustomDomainLease | null>
  /** Hands the lease of `hostname` to another holder (a worker that took an expired lease over). */
  readonly stealLease: (hostname: string, holder: string) => Effect.Effect<void>
  /** Makes storing any batch of results that holds `hostname` fail with a storage error. */
  readonly failCompletionOf: (hostname: string) => Effect.Effect<void>
  /** Removes a domain behind the use cases' back (another request deleting it). */
  readonly removeDirectly: (hostname: string) => Effect.Effect<void>
  readonly storedDomain: (hostname: string) => Effect.Effect<Option.Option<CustomDomain>>
  readonly storedConfig: (projectId: string) => Effect.Effect<Option.Option<DomainConfig>>
  readonly setCa: (behaviour: CaBehaviour) => Effect.Effect<void>
  /** Hostnames the CA was asked to open an order for, in order. */
  readonly ordersOpened: Effect.Effect<ReadonlyArray<string>>
  readonly storedCertificate: (hostname: string) => Effect.Effect<Option.Option<StoredCertificate>>
}

export class FakeWorld extends Context.Service<FakeWorld, WorldControls>()("test/FakeWorld") {}

export const fakeWorld: Layer.Layer<
  | FakeWorld
  | ProjectRepository
  | CustomDomainRepository
  | DnsResolver
  | PlatformSettings
  | CertificateIssuer
  | CertificateStore
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
    const ca = yield* Ref.make<CaBehaviour>("issues")
    const orders = yield* Ref.make(new Map<string, { hostname: string; polls: number }>())
    const ordersOpened = yield* Ref.make<ReadonlyArray<string>>([])
    const certificates = yield* Ref.make(new Map<string, StoredCertificate>())

    const setRow = (hostname: string, row: DomainRow) =>
      Ref.update(domains, (map) => new Map(map).set(hostname, row))
    const deleteRow = (hostname: string) =>
      Ref.update(domains, (map) => {
        const next = new Map(map)
        next.delete(hostname)
        return next
      })

    const caaLookup = (name: string) =>
      Effect.gen(function* () {
        yield* Ref.update(lookups, (all) => [...all, `caa ${name}`])
        const entry = (yield* Ref.get(dns)).get(name.toLowerCase())
        return entry?.caa ?? ({ _tag: "NoRecords", reason: "nodata" } as const)
      })

    const unreachable = new CertificateIssuerError({ message: "connect ECONNREFUSED ca.internal:443" })

    const certificateIssuer: CertificateIssuer["Service"] = {
      startOrder: (hostname) =>
        Effect.gen(function* () {
          if ((yield* Ref.get(ca)) === "unreachable") return yield* unreachable
          const opened = yield* Ref.updateAndGet(ordersOpened, (all) => [...all, hostname])
          const ref = OrderRef.make(`order-${opened.length}`)
          yield* Ref.update(orders, (map) => new Map(map).set(ref, { hostname, polls: 0 }))
          return ref
        }),
      pollOrder: (ref) =>
        Effect.gen(function* () {
          const behaviour = yield* Ref.get(ca)
          if (behaviour === "unreachable") return yield* unreachable
          const order = (yield* Ref.get(orders)).get(ref)
          if (order === undefined)
            return yield* new CertificateIssuerError({ message: `unknown order ${ref}` })
          yield* Ref.update(orders, (map) => new Map(map).set(ref, { ...order, polls: order.polls + 1 }))
          if (behaviour === "refuses") {
            return { _tag: "Invalid", reason: "the CA could not reach the challenge" } satisfies OrderState
          }
          if (behaviour === "stalls" || (behaviour === "issues" && order.polls === 0)) {
            return { _tag: "Pending" } satisfies OrderState
          }
          const now = yield* Clock.currentTimeMillis
          return {
            _tag: "Valid",
            certificatePem: `CERTIFICATE of ${order.hostname}`,
            chainPem: "CHAIN",
            privateKeyPem: Redacted.make(`KEY of ${order.hostname}`),
            notBefore: new Date(now - 3_600_000),
            notAfter: new Date(now + Duration.toMillis(certificateLifetime))
          } satisfies OrderState
        })
    }

    const certificateStore: CertificateStore["Service"] = {
      save: (hostname, certificate) =>
        Ref.update(certificates, (map) => new Map(map).set(hostname, certificate)),
      find: (hostname) => Effect.map(Ref.get(certificates), (map) => Option.fromNullishOr(map.get(hostname))),
      remove: (hostname) =>
        Ref.update(certificates, (map) => {
          const next = new Map(map)
          next.delete(hostname)
          return next
        })
    }

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

    const projectRepository: ProjectRepository["Service"] = {
      insert: (project) =>
        Effect.flatMap(Ref.get(projects), (map) =>
          map.has(project.id)
            ? Effect.fail(new ProjectIdTaken({ id: project.id }))
            : Ref.update(projects, (m) => new Map(m).set(project.id, project))
        ),
      findById: (id) => Effect.map(Ref.get(projects), (map) => Option.fromNullishOr(map.get(id))),
      findOwned: (account, id) =>
        Effect.map(Ref.get(projects), (map) =>
          Option.filter(Option.fromNullishOr(map.get(id)), (project) => project.account === account)
        ),
      update: (project) => Ref.update(projects, (m) => new Map(m).set(project.id, project)),
      findConfig: (id) => Effect.map(Ref.get(configs), (map) => Option.fromNullishOr(map.get(id))),
      saveConfig: (id, config) => Ref.update(configs, (m) => new Map(m).set(id, config))
    }

    const domainRepository: CustomDomainRepository["Service"] = {
      insert: (domain) =>
        Effect.flatMap(Ref.get(domains), (map) =>
          map.has(domain.hostname)
            ? Effect.fail(new HostnameTaken({ hostname: domain.hostname }))
            : setRow(domain.hostname, { domain, lease: null })
        ),
      findByHostname: (hostname) =>
        Effect.map(Ref.get(domains), (map) =>
          Option.map(Option.fromNullishOr(map.get(hostname)), (r) => r.domain)
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
      countDue: (now) =>
        Effect.map(
          Ref.get(domains),
          (map) =>
            Array.from(map.values()).filter((row) => {
              const dueAt = workDueAt(row.domain)
              return dueAt !== null && dueAt.getTime() <= now.getTime()
            }).length
        ),
      claimDue: (now, limit, lease) =>
        Effect.gen(function* () {
          yield* Ref.update(claimCalls, (all) => [...all, { now, limit, lease }])
          const due = Array.from((yield* Ref.get(domains)).values())
            .filter((row) => {
              const dueAt = workDueAt(row.domain)
              return (
                dueAt !== null &&
                dueAt.getTime() <= now.getTime() &&
                (row.lease === null || row.lease.until.getTime() <= now.getTime())
              )
            })
            .sort((a, b) => (workDueAt(a.domain)?.getTime() ?? 0) - (workDueAt(b.domain)?.getTime() ?? 0))
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
      completeChecks: (checked, holder) =>
        Effect.gen(function* () {
          const failing = yield* Ref.get(failingCompletions)
          if (checked.some((domain) => failing.has(domain.hostname))) {
            return yield* new StorageError({ operation: "completeChecks", cause: new Error("disk full") })
          }
          const stored: Array<Hostname> = []
          for (const domain of checked) {
            const row = (yield* Ref.get(domains)).get(domain.hostname)
            if (row === undefined || row.lease?.holder !== holder) continue
            yield* setRow(domain.hostname, { domain, lease: null })
            stored.push(domain.hostname)
          }
          return stored
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
          Option.map(Option.fromNullishOr(map.get(hostname)), (r) => r.domain)
        ),
      storedConfig: (projectId) =>
        Effect.map(Ref.get(configs), (map) => Option.fromNullishOr(map.get(projectId))),
      setCa: (behaviour) => Ref.set(ca, behaviour),
      ordersOpened: Ref.get(ordersOpened),
      storedCertificate: (hostname) =>
        Effect.map(Ref.get(certificates), (map) => Option.fromNullishOr(map.get(hostname)))
    }

    return Context.make(FakeWorld, controls).pipe(
      Context.add(ProjectRepository, projectRepository),
      Context.add(CustomDomainRepository, domainRepository),
      Context.add(DnsResolver, {
        cname: (name) => lookup("cname", name),
        addresses: (name) => lookup("addresses", name),
        caa: caaLookup
      }),
      Context.add(PlatformSettings, { platformDomain, cnameTarget, caIdentifier }),
      Context.add(CertificateIssuer, certificateIssuer),
      Context.add(CertificateStore, certificateStore)
    )
  })
)
