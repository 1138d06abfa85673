/**
 * In-memory fakes of the custom-domain ports for use-case tests: Ref-based project, domain and claim
 * repositories (with leases, as the ports describe them), ownership tokens and releases, a
 * table-driven DNS resolver (wildcard entries included), a scripted certificate authority with its
 * certificate store, and fixed platform settings. `FakeWorld` gives a test the knobs: DNS answers,
 * the CA's behaviour, lookups made, calls recorded.
 */

import {
  CertificateIssuer,
  CertificateIssuerError,
  CertificateStore,
  type OrderState,
  type StoredCertificate
} from "@petstore/certificates"
import {
  type CaaRecord,
  type CustomDomain,
  type CustomDomainKey,
  CustomDomainRepository,
  type DnsAnswer,
  DnsName,
  DnsResolver,
  domainLimitRefusal,
  HostnameTaken,
  isRivalOf,
  OrderRef,
  OwnershipToken,
  PlatformSettings,
  VerifyCooldown,
  workDueAt
} from "@petstore/domains"
import { type AccountName, type Lease, type LimitReached, limitReached, StorageError } from "@petstore/kernel"
import {
  type Claim,
  ClaimRepository,
  claimLimitRefusal,
  type DecidedWrites,
  DecidedWritesStore,
  type HostnameRelease,
  OwnershipRepository,
  writtenClaim,
  writtenDomain
} from "@petstore/ownership"
import { type Project, ProjectIdTaken, ProjectRepository } from "@petstore/projects"
import { type DomainConfig, DomainConfigRepository } from "@petstore/serving"
import { Clock, Context, Duration, Effect, Layer, Option, Redacted, Ref } from "effect"

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
  readonly txt?: DnsAnswer<string>
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
  readonly lease: Lease
}

interface DomainRow {
  readonly domain: CustomDomain
  readonly lease: Lease | null
}

interface ClaimRow {
  readonly claim: Claim
  readonly lease: Lease | null
}

export interface WorldControls {
  /**
   * Sets what DNS answers for `name` (any name not set answers NXDOMAIN, unless a `*.<parent>` entry
   * is set: a wildcard answers for every name under its parent that has no entry of its own).
   */
  readonly setDns: (name: string, entry: DnsEntry) => Effect.Effect<void>
  /** Runs `effect` while `name`'s CNAME is being looked up (between a claim and its completion). */
  readonly duringLookup: (name: string, effect: Effect.Effect<void>) => Effect.Effect<void>
  /** Every lookup made, as "cname <name>", "addresses <name>", "txt <name>" or "caa <name>". */
  readonly lookups: Effect.Effect<ReadonlyArray<string>>
  readonly claimCalls: Effect.Effect<ReadonlyArray<ClaimCall>>
  /** The hostnames whose domain lease was given back, in order. */
  readonly releases: Effect.Effect<ReadonlyArray<string>>
  /** The lease of the domain with `hostname` (of `projectId`, else the first one stored). */
  readonly leaseOf: (hostname: string, projectId?: string) => Effect.Effect<Lease | null>
  /** Hands the lease of `hostname` to another holder (a worker that took an expired lease over). */
  readonly stealLease: (hostname: string, holder: string) => Effect.Effect<void>
  /** Writes the stored domains of `hostname` again as they are, as any other write does: next version, lease ended. */
  readonly rewriteDirectly: (hostname: string) => Effect.Effect<void>
  /** The hostnames each `listRivals` read asked for, in order. */
  readonly holderReads: Effect.Effect<ReadonlyArray<ReadonlyArray<string>>>
  /** Makes every `listRivals` read fail with a storage error. */
  readonly failHolderReads: Effect.Effect<void>
  /** Makes storing any batch of results that holds `hostname` fail with a storage error. */
  readonly failCompletionOf: (hostname: string) => Effect.Effect<void>
  /** Removes every domain with `hostname` behind the use cases' back (another request deleting it). */
  readonly removeDirectly: (hostname: string) => Effect.Effect<void>
  /** The domain with `hostname` of `projectId` (else the first one stored). */
  readonly storedDomain: (hostname: string, projectId?: string) => Effect.Effect<Option.Option<CustomDomain>>
  readonly storedConfig: (projectId: string) => Effect.Effect<Option.Option<DomainConfig>>
  readonly storedClaim: (account: AccountName, apex: string) => Effect.Effect<Option.Option<Claim>>
  /** The lease of `account`'s claim of `apex`. */
  readonly claimLeaseOf: (account: AccountName, apex: string) => Effect.Effect<Lease | null>
  /** Every release of `hostname` recorded (`OwnershipRepository.recordRelease`), latest per account. */
  readonly hostnameReleases: (hostname: string) => Effect.Effect<ReadonlyArray<HostnameRelease>>
  readonly setCa: (behaviour: CaBehaviour) => Effect.Effect<void>
  /** Hostnames the CA was asked to open an order for, in order. */
  readonly ordersOpened: Effect.Effect<ReadonlyArray<string>>
  readonly storedCertificate: (hostname: string) => Effect.Effect<Option.Option<StoredCertificate>>
  /** Puts a certificate in the store directly (one issued before the test starts). */
  readonly saveCertificate: (hostname: string, certificate: StoredCertificate) => Effect.Effect<void>
}

export class FakeWorld extends Context.Service<FakeWorld, WorldControls>()("test/FakeWorld") {}

const domainKey = (key: CustomDomainKey) => `${key.projectId} ${key.hostname}`
const claimKey = (account: string, apex: string) => `${account} ${apex}`

const without = <K, V>(map: ReadonlyMap<K, V>, keys: ReadonlyArray<K>) => {
  const next = new Map(map)
  for (const key of keys) next.delete(key)
  return next
}

export const fakeWorld: Layer.Layer<
  | FakeWorld
  | ProjectRepository
  | DomainConfigRepository
  | CustomDomainRepository
  | DecidedWritesStore
  | ClaimRepository
  | OwnershipRepository
  | DnsResolver
  | PlatformSettings
  | CertificateIssuer
  | CertificateStore
> = Layer.effectContext(
  Effect.gen(function* () {
    const projects = yield* Ref.make(new Map<string, Project>())
    const configs = yield* Ref.make(new Map<string, DomainConfig>())
    const domains = yield* Ref.make(new Map<string, DomainRow>())
    const claims = yield* Ref.make(new Map<string, ClaimRow>())
    const tokens = yield* Ref.make(new Map<string, OwnershipToken>())
    const hostnameReleases = yield* Ref.make(new Map<string, ReadonlyMap<AccountName, Date>>())
    const dns = yield* Ref.make(
      new Map<string, DnsEntry>([[cnameTarget, { cname: nxdomain, addresses: records(...targetAddresses) }]])
    )
    const hooks = yield* Ref.make(new Map<string, Effect.Effect<void>>())
    const lookups = yield* Ref.make<ReadonlyArray<string>>([])
    const claimCalls = yield* Ref.make<ReadonlyArray<ClaimCall>>([])
    const releases = yield* Ref.make<ReadonlyArray<string>>([])
    const failingCompletions = yield* Ref.make(new Set<string>())
    const holderReads = yield* Ref.make<ReadonlyArray<ReadonlyArray<string>>>([])
    const holderReadsFail = yield* Ref.make(false)
    const ca = yield* Ref.make<CaBehaviour>("issues")
    const orders = yield* Ref.make(new Map<string, { hostname: string; polls: number }>())
    const ordersOpened = yield* Ref.make<ReadonlyArray<string>>([])
    const certificates = yield* Ref.make(new Map<string, StoredCertificate>())

    const setRow = (row: DomainRow) =>
      Ref.update(domains, (map) => new Map(map).set(domainKey(row.domain), row))
    const rowsOf = (hostname: string) =>
      Effect.map(Ref.get(domains), (map) =>
        Array.from(map.values()).filter((row) => row.domain.hostname === hostname)
      )
    const rowOf = (hostname: string, projectId?: string) =>
      Effect.map(rowsOf(hostname), (rows) =>
        rows.find((row) => projectId === undefined || row.domain.projectId === projectId)
      )
    const allDomains = Effect.map(Ref.get(domains), (map) => Array.from(map.values(), (row) => row.domain))
    const setClaimRow = (row: ClaimRow) =>
      Ref.update(claims, (map) => new Map(map).set(claimKey(row.claim.account, row.claim.apex), row))
    const allClaims = Effect.map(Ref.get(claims), (map) => Array.from(map.values(), (row) => row.claim))
    const isDue = (dueAt: Date | null, lease: Lease | null, now: Date) =>
      dueAt !== null &&
      dueAt.getTime() <= now.getTime() &&
      (lease === null || lease.until.getTime() <= now.getTime())

    /** The entry of `name`, or of the wildcard of its parent, as an authoritative server answers. */
    const entryOf = (name: string) =>
      Effect.map(Ref.get(dns), (table) => {
        const exact = table.get(name.toLowerCase())
        if (exact !== undefined) return exact
        const parent = DnsName.labelsOf(name.toLowerCase()).slice(1).join(".")
        return table.get(`*.${parent}`)
      })

    const caaLookup = (name: string) =>
      Effect.gen(function* () {
        yield* Ref.update(lookups, (all) => [...all, `caa ${name}`])
        const entry = yield* entryOf(name)
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
      // Kept only for the domain as it was when its order was settled, still verified.
      save: (issuedFor, certificate) =>
        Effect.gen(function* () {
          const stored = (yield* Ref.get(domains)).get(domainKey(issuedFor))?.domain
          if (stored?.status !== "verified" || stored.version !== issuedFor.version) return false
          yield* Ref.update(certificates, (map) => new Map(map).set(issuedFor.hostname, certificate))
          return true
        }),
      find: (hostname) => Effect.map(Ref.get(certificates), (map) => Option.fromNullishOr(map.get(hostname))),
      remove: (hostname) =>
        Effect.gen(function* () {
          if ((yield* rowsOf(hostname)).some((row) => row.domain.status === "verified")) return
          yield* Ref.update(certificates, (map) => without(map, [hostname]))
        })
    }

    const lookup = (kind: "cname" | "addresses" | "txt", name: string) =>
      Effect.gen(function* () {
        yield* Ref.update(lookups, (all) => [...all, `${kind} ${name}`])
        if (kind === "cname") {
          const hook = (yield* Ref.get(hooks)).get(name)
          if (hook !== undefined) yield* hook
        }
        const entry = yield* entryOf(name)
        return entry?.[kind] ?? nxdomain
      })

    const projectRepository: ProjectRepository["Service"] = {
      insert: (project, { projectsPerAccount }) =>
        Effect.flatMap(Ref.get(projects), (map): Effect.Effect<void, ProjectIdTaken | LimitReached> => {
          if (map.has(project.id)) return Effect.fail(new ProjectIdTaken({ id: project.id }))
          const owned = [...map.values()].filter((stored) => stored.account === project.account)
          return owned.length >= projectsPerAccount
            ? Effect.fail(limitReached("projectsPerAccount", projectsPerAccount))
            : Ref.update(projects, (m) => new Map(m).set(project.id, project))
        }),
      listOwned: ({ account, after, limit }) =>
        Effect.map(Ref.get(projects), (map) => {
          const following = [...map.values()]
            .filter((project) => project.account === account)
            .filter((project) => Option.isNone(after) || project.id > after.value)
            .sort((a, b) => (a.id < b.id ? -1 : 1))
          const page = following.slice(0, limit)
          const last = page.at(-1)
          return {
            projects: page,
            nextAfter:
              following.length > page.length && last !== undefined ? Option.some(last.id) : Option.none()
          }
        }),
      findById: (id) => Effect.map(Ref.get(projects), (map) => Option.fromNullishOr(map.get(id))),
      findOwned: (account, id) =>
        Effect.map(Ref.get(projects), (map) =>
          Option.filter(Option.fromNullishOr(map.get(id)), (project) => project.account === account)
        ),
      update: (project) => Ref.update(projects, (m) => new Map(m).set(project.id, project))
    }
    const domainConfigRepository: DomainConfigRepository["Service"] = {
      find: (id) => Effect.map(Ref.get(configs), (map) => Option.fromNullishOr(map.get(id))),
      save: (id, config) => Ref.update(configs, (m) => new Map(m).set(id, config))
    }

    const byCreation = (a: CustomDomain, b: CustomDomain) => a.createdAt.getTime() - b.createdAt.getTime()

    /** Whether another domain with `domain`'s hostname than itself is verified. */
    const otherVerified = (domain: CustomDomain) =>
      Effect.map(rowsOf(domain.hostname), (rows) =>
        rows.some((row) => row.domain.status === "verified" && domainKey(row.domain) !== domainKey(domain))
      )

    /** Every write at the version it was decided from and at most one verified domain a hostname, or none. */
    const storeDecided = (writes: DecidedWrites) =>
      Effect.gen(function* () {
        const domainMap = yield* Ref.get(domains)
        const claimMap = yield* Ref.get(claims)
        const asDecided =
          writes.domains.every(
            (domain) => domainMap.get(domainKey(domain))?.domain.version === domain.version
          ) &&
          writes.claims.every(
            (claim) => claimMap.get(claimKey(claim.account, claim.apex))?.claim.version === claim.version
          )
        if (!asDecided) return false
        const after = new Map(domainMap)
        for (const domain of writes.domains) {
          after.set(domainKey(domain), { domain: writtenDomain(domain), lease: null })
        }
        const verifiedTwice = writes.domains.some(
          (domain) =>
            domain.status === "verified" &&
            [...after.values()].filter(
              (row) => row.domain.hostname === domain.hostname && row.domain.status === "verified"
            ).length > 1
        )
        if (verifiedTwice) return false
        yield* Ref.set(domains, after)
        for (const claim of writes.claims) yield* setClaimRow({ claim: writtenClaim(claim), lease: null })
        return true
      })

    const domainRepository: CustomDomainRepository["Service"] = {
      insert: (domain, limits) =>
        Effect.gen(function* () {
          if ((yield* rowsOf(domain.hostname)).some((row) => row.domain.account === domain.account)) {
            return yield* new HostnameTaken({ hostname: domain.hostname })
          }
          const inProject = (yield* allDomains).filter((stored) => stored.projectId === domain.projectId)
          const refusal = domainLimitRefusal(inProject.length, limits)
          if (refusal !== undefined) return yield* refusal
          yield* setRow({ domain, lease: null })
        }),
      findInProject: (projectId, hostname) =>
        Effect.map(Ref.get(domains), (map) =>
          Option.map(Option.fromNullishOr(map.get(domainKey({ projectId, hostname }))), (row) => row.domain)
        ),
      findVerified: (hostname) =>
        Effect.map(rowsOf(hostname), (rows) =>
          Option.fromNullishOr(rows.find((row) => row.domain.status === "verified")?.domain)
        ),
      listRivals: (holds) =>
        Effect.gen(function* () {
          yield* Ref.update(holderReads, (all) => [...all, holds.map((hold) => hold.hostname)])
          if (yield* Ref.get(holderReadsFail)) {
            return yield* new StorageError({ operation: "listRivals", cause: new Error("timeout") })
          }
          const all = yield* allDomains
          return all.filter((domain) => holds.some((hold) => isRivalOf(hold)(domain))).sort(byCreation)
        }),
      listAtOrUnder: (apex) =>
        Effect.map(allDomains, (all) =>
          all.filter((domain) => DnsName.isAtOrUnder(domain.hostname, apex)).sort(byCreation)
        ),
      listByProject: (projectId) =>
        Effect.map(allDomains, (all) => all.filter((domain) => domain.projectId === projectId)),
      update: (domain) => storeDecided({ domains: [domain], claims: [] }),
      remove: (projectId, hostname) =>
        Effect.flatMap(Ref.get(domains), (map) => {
          const key = domainKey({ projectId, hostname })
          const removed = Option.map(Option.fromNullishOr(map.get(key)), (row) => row.domain)
          return Effect.as(
            Ref.update(domains, (m) => without(m, [key])),
            removed
          )
        }),
      countDue: (now) =>
        Effect.map(
          allDomains,
          (all) =>
            all.filter((domain) => {
              const dueAt = workDueAt(domain)
              return dueAt !== null && dueAt.getTime() <= now.getTime()
            }).length
        ),
      claimDue: (now, limit, lease) =>
        Effect.gen(function* () {
          yield* Ref.update(claimCalls, (all) => [...all, { now, limit, lease }])
          const due = Array.from((yield* Ref.get(domains)).values())
            .filter((row) => isDue(workDueAt(row.domain), row.lease, now))
            .sort((a, b) => (workDueAt(a.domain)?.getTime() ?? 0) - (workDueAt(b.domain)?.getTime() ?? 0))
            .slice(0, limit)
          for (const row of due) yield* setRow({ domain: row.domain, lease })
          return due.map((row) => row.domain)
        }),
      releaseLease: (key, holder) =>
        Effect.gen(function* () {
          yield* Ref.update(releases, (all) => [...all, key.hostname])
          const row = (yield* Ref.get(domains)).get(domainKey(key))
          if (row?.lease?.holder === holder) yield* setRow({ ...row, lease: null })
        }),
      completeChecks: (work, holder) =>
        Effect.gen(function* () {
          const failing = yield* Ref.get(failingCompletions)
          if (work.some(({ result }) => failing.has(result.hostname))) {
            return yield* new StorageError({ operation: "completeChecks", cause: new Error("disk full") })
          }
          const stored: Array<CustomDomainKey> = []
          for (const { result: domain } of work) {
            const row = (yield* Ref.get(domains)).get(domainKey(domain))
            if (row === undefined || row.lease?.holder !== holder) continue
            if (domain.status === "verified" && (yield* otherVerified(domain))) continue
            yield* setRow({ domain: writtenDomain(domain, row.domain.version), lease: null })
            stored.push({ projectId: domain.projectId, hostname: domain.hostname })
          }
          return stored
        })
    }

    const byClaimCreation = (a: Claim, b: Claim) => a.createdAt.getTime() - b.createdAt.getTime()

    const claimRepository: ClaimRepository["Service"] = {
      insert: (claim, limits) =>
        Effect.gen(function* () {
          const map = yield* Ref.get(claims)
          if (map.has(claimKey(claim.account, claim.apex))) return false
          const owned = [...map.values()].filter((row) => row.claim.account === claim.account)
          const refusal = claimLimitRefusal(
            { total: owned.length, pending: owned.filter((row) => row.claim.status === "pending").length },
            limits
          )
          if (refusal !== undefined) return yield* refusal
          yield* setClaimRow({ claim, lease: null })
          return true
        }),
      findOwned: (account, apex) =>
        Effect.map(Ref.get(claims), (map) =>
          Option.map(Option.fromNullishOr(map.get(claimKey(account, apex))), (row) => row.claim)
        ),
      listByAccount: (account) =>
        Effect.map(allClaims, (all) =>
          all.filter((claim) => claim.account === account).sort(byClaimCreation)
        ),
      listByApexes: (apexes) =>
        Effect.map(allClaims, (all) =>
          all.filter((claim) => apexes.includes(claim.apex)).sort(byClaimCreation)
        ),
      update: (claim) =>
        Effect.flatMap(Ref.get(claims), (map) =>
          map.get(claimKey(claim.account, claim.apex))?.claim.version === claim.version
            ? Effect.as(setClaimRow({ claim: writtenClaim(claim), lease: null }), true)
            : Effect.succeed(false)
        ),
      remove: (account, apex) =>
        Effect.flatMap(Ref.get(claims), (map) => {
          const key = claimKey(account, apex)
          return map.has(key)
            ? Effect.as(
                Ref.update(claims, (m) => without(m, [key])),
                true
              )
            : Effect.succeed(false)
        }),
      claimDue: (now, limit, lease) =>
        Effect.gen(function* () {
          const due = Array.from((yield* Ref.get(claims)).values())
            .filter((row) => isDue(row.claim.nextCheckAt, row.lease, now))
            .sort((a, b) => (a.claim.nextCheckAt?.getTime() ?? 0) - (b.claim.nextCheckAt?.getTime() ?? 0))
            .slice(0, limit)
          for (const row of due) yield* setClaimRow({ claim: row.claim, lease })
          return due.map((row) => row.claim)
        }),
      completeChecks: (checked, holder) =>
        Effect.gen(function* () {
          let stored = 0
          for (const claim of checked) {
            const row = (yield* Ref.get(claims)).get(claimKey(claim.account, claim.apex))
            if (row === undefined || row.lease?.holder !== holder) continue
            yield* setClaimRow({ claim: writtenClaim(claim, row.claim.version), lease: null })
            stored++
          }
          return stored
        }),
      releaseLease: (account, apex, holder) =>
        Effect.gen(function* () {
          const row = (yield* Ref.get(claims)).get(claimKey(account, apex))
          if (row?.lease?.holder === holder) yield* setClaimRow({ ...row, lease: null })
        })
    }

    // Deterministic stand-ins for the CSPRNG's tokens: distinct per account and name, stable for the pair.
    const ownershipRepository: OwnershipRepository["Service"] = {
      tokenFor: (account, name) =>
        Ref.modify(tokens, (map) => {
          const key = `${account} ${name}`
          const known = map.get(key)
          if (known !== undefined) return [known, map]
          const token = OwnershipToken.make((map.size + 1).toString(16).padStart(32, "0"))
          return [token, new Map(map).set(key, token)]
        }),
      recordRelease: (account, hostname, at) =>
        Ref.update(hostnameReleases, (map) => {
          const previous = map.get(hostname) ?? new Map<AccountName, Date>()
          const latest = previous.get(account)
          const kept = latest !== undefined && latest.getTime() > at.getTime() ? latest : at
          return new Map(map).set(hostname, new Map(previous).set(account, kept))
        }),
      releasesSince: (hostnames, since) =>
        Effect.map(Ref.get(hostnameReleases), (map) =>
          hostnames.flatMap((hostname) =>
            Array.from(map.get(hostname) ?? new Map<AccountName, Date>(), ([account, releasedAt]) => ({
              account,
              hostname,
              releasedAt
            })).filter((release) => release.releasedAt.getTime() > since.getTime())
          )
        )
    }

    const controls: WorldControls = {
      setDns: (name, entry) => Ref.update(dns, (m) => new Map(m).set(name.toLowerCase(), entry)),
      duringLookup: (name, effect) => Ref.update(hooks, (m) => new Map(m).set(name, effect)),
      lookups: Ref.get(lookups),
      claimCalls: Ref.get(claimCalls),
      releases: Ref.get(releases),
      leaseOf: (hostname, projectId) => Effect.map(rowOf(hostname, projectId), (row) => row?.lease ?? null),
      stealLease: (hostname, holder) =>
        Effect.flatMap(rowsOf(hostname), (rows) =>
          Effect.forEach(rows, (row) => setRow({ ...row, lease: { holder, until: new Date(8.64e15) } }), {
            discard: true
          })
        ),
      rewriteDirectly: (hostname) =>
        Effect.flatMap(rowsOf(hostname), (rows) =>
          Effect.forEach(rows, (row) => setRow({ domain: writtenDomain(row.domain), lease: null }), {
            discard: true
          })
        ),
      holderReads: Ref.get(holderReads),
      failHolderReads: Ref.set(holderReadsFail, true),
      failCompletionOf: (hostname) => Ref.update(failingCompletions, (set) => new Set(set).add(hostname)),
      removeDirectly: (hostname) =>
        Effect.flatMap(rowsOf(hostname), (rows) =>
          Ref.update(domains, (map) =>
            without(
              map,
              rows.map((row) => domainKey(row.domain))
            )
          )
        ),
      storedDomain: (hostname, projectId) =>
        Effect.map(rowOf(hostname, projectId), (row) => Option.fromNullishOr(row?.domain)),
      storedConfig: (projectId) =>
        Effect.map(Ref.get(configs), (map) => Option.fromNullishOr(map.get(projectId))),
      storedClaim: (account, apex) =>
        Effect.map(Ref.get(claims), (map) =>
          Option.map(Option.fromNullishOr(map.get(claimKey(account, apex))), (row) => row.claim)
        ),
      claimLeaseOf: (account, apex) =>
        Effect.map(Ref.get(claims), (map) => map.get(claimKey(account, apex))?.lease ?? null),
      hostnameReleases: (hostname) =>
        Effect.map(Ref.get(hostnameReleases), (map) =>
          Array.from(map.get(hostname) ?? new Map<AccountName, Date>(), ([account, releasedAt]) => ({
            account,
            hostname,
            releasedAt
          }))
        ),
      setCa: (behaviour) => Ref.set(ca, behaviour),
      ordersOpened: Ref.get(ordersOpened),
      storedCertificate: (hostname) =>
        Effect.map(Ref.get(certificates), (map) => Option.fromNullishOr(map.get(hostname))),
      saveCertificate: (hostname, certificate) =>
        Ref.update(certificates, (map) => new Map(map).set(hostname, certificate))
    }

    return Context.make(FakeWorld, controls).pipe(
      Context.add(ProjectRepository, projectRepository),
      Context.add(DomainConfigRepository, domainConfigRepository),
      Context.add(CustomDomainRepository, domainRepository),
      Context.add(DecidedWritesStore, { storeDecided }),
      Context.add(ClaimRepository, claimRepository),
      Context.add(OwnershipRepository, ownershipRepository),
      Context.add(DnsResolver, {
        cname: (name) => lookup("cname", name),
        addresses: (name) => lookup("addresses", name),
        txt: (name) => lookup("txt", name),
        caa: caaLookup
      }),
      Context.add(PlatformSettings, { platformDomain, cnameTarget, caIdentifier }),
      Context.add(CertificateIssuer, certificateIssuer),
      Context.add(CertificateStore, certificateStore),
      // The use-case tests click Verify several times at one instant of their clock; the cool-down
      // has tests of its own, which set it.
      Context.add(VerifyCooldown, Duration.zero)
    )
  })
)
