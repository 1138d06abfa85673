/**
 * A custom domain's whole life through the use cases, over in-memory adapters of the ports: the
 * project's plan and deploy gate it, Verify checks DNS, a worker round gets its certificate, the
 * edge serves it, and removing it stops that at once (and keeps the name its owner's for 30 days).
 */

import { CertificateIssuer, CertificateStore, type StoredCertificate } from "@petstore/certificates"
import {
  addDomain,
  checkDueCustomDomains,
  getDomain,
  removeDomain,
  verifyNow
} from "@petstore/custom-domains"
import {
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
  workDueAt
} from "@petstore/domains"
import { defaultAccountName, limitReached } from "@petstore/kernel"
import {
  type Claim,
  ClaimRepository,
  claimLimitRefusal,
  DecidedWritesStore,
  type HostnameRelease,
  OwnershipRepository,
  writtenClaim,
  writtenDomain
} from "@petstore/ownership"
import {
  changePlan,
  createProject,
  type Project,
  ProjectId,
  ProjectIdTaken,
  ProjectRepository,
  recordProjectDeploy
} from "@petstore/projects"
import { type DomainConfig, DomainConfigRepository, resolveEdge } from "@petstore/serving"
import { Duration, Effect, Layer, Option, Redacted } from "effect"

const projects = new Map<string, Project>()
const configs = new Map<string, DomainConfig>()
/** By project and hostname: a hostname is in one project per account, and several accounts may have it. */
const domains = new Map<string, CustomDomain>()
const claims = new Map<string, Claim>()
const tokens = new Map<string, OwnershipToken>()
const releases = new Map<string, HostnameRelease & { readonly hostname: string }>()
const certificates = new Map<string, StoredCertificate>()

const ownedBy = (account: string) => [...projects.values()].filter((project) => project.account === account)

const MemoryProjects = Layer.succeed(
  ProjectRepository,
  ProjectRepository.of({
    insert: (project, { projectsPerAccount }) => {
      if (projects.has(project.id)) return Effect.fail(new ProjectIdTaken({ id: project.id }))
      // Counted and added in one synchronous step: no other insert runs in between.
      if (ownedBy(project.account).length >= projectsPerAccount) {
        return Effect.fail(limitReached("projectsPerAccount", projectsPerAccount))
      }
      return Effect.sync(() => void projects.set(project.id, project))
    },
    listOwned: ({ account, after, limit }) =>
      Effect.sync(() => {
        const following = ownedBy(account)
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
    findById: (id) => Effect.sync(() => Option.fromNullishOr(projects.get(id))),
    findOwned: (account, id) =>
      Effect.sync(() =>
        Option.filter(Option.fromNullishOr(projects.get(id)), (found) => found.account === account)
      ),
    update: (project) => Effect.sync(() => void projects.set(project.id, project))
  })
)

const MemoryConfigs = Layer.succeed(
  DomainConfigRepository,
  DomainConfigRepository.of({
    find: (id) => Effect.sync(() => Option.fromNullishOr(configs.get(id))),
    save: (id, config) => Effect.sync(() => void configs.set(id, config))
  })
)

// One process, no competing workers: a lease is nothing to keep here.
const keyOf = (domain: CustomDomainKey) => `${domain.projectId} ${domain.hostname}`
const all = () => [...domains.values()]
const dueAt = (now: Date) =>
  all().filter((domain) => (workDueAt(domain)?.getTime() ?? Infinity) <= now.getTime())
/** Replaces a stored domain still at the version it was decided from; false when it is not (or gone). */
const replace = (domain: CustomDomain): boolean => {
  if (domains.get(keyOf(domain))?.version !== domain.version) return false
  domains.set(keyOf(domain), writtenDomain(domain))
  return true
}

const MemoryDomains = Layer.succeed(
  CustomDomainRepository,
  CustomDomainRepository.of({
    insert: (domain, limits) => {
      if (all().some((other) => other.hostname === domain.hostname && other.account === domain.account)) {
        return Effect.fail(new HostnameTaken({ hostname: domain.hostname }))
      }
      const refusal = domainLimitRefusal(
        all().filter((other) => other.projectId === domain.projectId).length,
        limits
      )
      return refusal === undefined
        ? Effect.sync(() => void domains.set(keyOf(domain), domain))
        : Effect.fail(refusal)
    },
    findInProject: (projectId, hostname) =>
      Effect.sync(() => Option.fromNullishOr(domains.get(keyOf({ projectId, hostname })))),
    findVerified: (hostname) =>
      Effect.sync(() =>
        Option.fromNullishOr(
          all().find((domain) => domain.hostname === hostname && domain.status === "verified")
        )
      ),
    listRivals: (holds) =>
      Effect.sync(() => all().filter((domain) => holds.some((hold) => isRivalOf(hold)(domain)))),
    listAtOrUnder: (apex) =>
      Effect.sync(() => all().filter((domain) => DnsName.isAtOrUnder(domain.hostname, apex))),
    listByProject: (projectId) => Effect.sync(() => all().filter((domain) => domain.projectId === projectId)),
    update: (domain) => Effect.sync(() => replace(domain)),
    remove: (projectId, hostname) =>
      Effect.sync(() => {
        const removed = Option.fromNullishOr(domains.get(keyOf({ projectId, hostname })))
        domains.delete(keyOf({ projectId, hostname }))
        return removed
      }),
    claimDue: (now, limit) => Effect.sync(() => dueAt(now).slice(0, limit)),
    countDue: (now) => Effect.sync(() => dueAt(now).length),
    releaseLease: () => Effect.void,
    completeChecks: (work) => Effect.sync(() => work.map(({ result }) => result).filter(replace))
  })
)

const claimKey = (claim: Pick<Claim, "account" | "apex">) => `${claim.account} ${claim.apex}`
/**
 * Stores `claim` only if it is (`update`, at the version it was decided from) or is not (`insert`)
 * stored already; whether it did.
 */
const storeClaim = (claim: Claim, stored: boolean): boolean => {
  const current = claims.get(claimKey(claim))
  if (stored ? current?.version !== claim.version : current !== undefined) return false
  claims.set(claimKey(claim), stored ? writtenClaim(claim) : claim)
  return true
}
const claimsWhere = (keep: (claim: Claim) => boolean) => [...claims.values()].filter(keep)

const MemoryClaims = Layer.succeed(
  ClaimRepository,
  ClaimRepository.of({
    insert: (claim, limits) => {
      if (claims.has(claimKey(claim))) return Effect.succeed(false)
      const owned = claimsWhere((other) => other.account === claim.account)
      const refusal = claimLimitRefusal(
        { total: owned.length, pending: owned.filter((other) => other.status === "pending").length },
        limits
      )
      return refusal === undefined ? Effect.sync(() => storeClaim(claim, false)) : Effect.fail(refusal)
    },
    findOwned: (account, apex) =>
      Effect.sync(() => Option.fromNullishOr(claims.get(claimKey({ account, apex })))),
    listByAccount: (account) => Effect.sync(() => claimsWhere((claim) => claim.account === account)),
    listByApexes: (apexes) => Effect.sync(() => claimsWhere((claim) => apexes.includes(claim.apex))),
    update: (claim) => Effect.sync(() => storeClaim(claim, true)),
    remove: (account, apex) => Effect.sync(() => claims.delete(claimKey({ account, apex }))),
    claimDue: (now, limit) =>
      Effect.sync(() =>
        claimsWhere((claim) => (claim.nextCheckAt?.getTime() ?? Infinity) <= now.getTime()).slice(0, limit)
      ),
    completeChecks: (checked) => Effect.sync(() => checked.filter((claim) => storeClaim(claim, true)).length),
    releaseLease: () => Effect.void
  })
)

// A token is 128 bits from a cryptographically secure source, made once per account and name.
const randomToken = () =>
  OwnershipToken.make(
    Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join(
      ""
    )
  )

const MemoryOwnership = Layer.succeed(
  OwnershipRepository,
  OwnershipRepository.of({
    tokenFor: (account, name) =>
      Effect.sync(() => {
        const token = tokens.get(`${account} ${name}`) ?? randomToken()
        tokens.set(`${account} ${name}`, token)
        return token
      }),
    recordRelease: (account, hostname, releasedAt) =>
      Effect.sync(() => void releases.set(`${account} ${hostname}`, { hostname, account, releasedAt })),
    releasesSince: (hostnames, since) =>
      Effect.sync(() =>
        [...releases.values()].filter(
          (release) => hostnames.includes(release.hostname) && release.releasedAt.getTime() > since.getTime()
        )
      )
  })
)

const MemoryCertificates = Layer.succeed(
  CertificateStore,
  CertificateStore.of({
    // Kept only for the domain as it was when its order was settled, still verified.
    save: (issuedFor, certificate) =>
      Effect.sync(() => {
        const stored = domains.get(keyOf(issuedFor))
        if (stored?.status !== "verified" || stored.version !== issuedFor.version) return false
        certificates.set(issuedFor.hostname, certificate)
        return true
      }),
    find: (hostname) => Effect.sync(() => Option.fromNullishOr(certificates.get(hostname))),
    remove: (hostname) =>
      Effect.sync(() => {
        if (!all().some((domain) => domain.hostname === hostname && domain.status === "verified")) {
          certificates.delete(hostname)
        }
      })
  })
)

// DNS as the owner set it up: docs.example.com is a CNAME to the platform's target; no CAA anywhere.
const none: DnsAnswer<never> = { _tag: "NoRecords", reason: "nxdomain" }
const Dns = Layer.succeed(
  DnsResolver,
  DnsResolver.of({
    cname: (name) =>
      Effect.succeed(
        name === "docs.example.com" ? { _tag: "Records", records: ["cname.example-sites.net"] } : none
      ),
    addresses: () => Effect.succeed(none),
    txt: () => Effect.succeed(none),
    caa: () => Effect.succeed(none)
  })
)

// A certificate authority that issues at once (an ACME adapter opens an order and polls it).
const InstantCa = Layer.succeed(
  CertificateIssuer,
  CertificateIssuer.of({
    startOrder: (hostname) => Effect.succeed(OrderRef.make(`order-for-${hostname}`)),
    pollOrder: () =>
      Effect.sync(() => ({
        _tag: "Valid" as const,
        certificatePem: "-----BEGIN CERTIFICATE-----…",
        chainPem: "-----BEGIN CERTIFICATE-----…",
        privateKeyPem: Redacted.make("-----BEGIN PRIVATE KEY-----…"),
        notBefore: new Date(),
        notAfter: new Date(Date.now() + Duration.toMillis(Duration.days(90)))
      }))
  })
)

const Platform = PlatformSettings.layer({
  platformDomain: "docs.example-platform.com",
  cnameTarget: "cname.example-sites.net",
  caIdentifier: "letsencrypt.org"
})

const account = defaultAccountName
const handbook = ProjectId.make("handbook")

const program = Effect.gen(function* () {
  yield* createProject(account, handbook, "free")
  console.log((yield* Effect.flip(addDomain(account, handbook, "docs.example.com")))._tag)
  yield* changePlan(account, handbook, "pro")
  console.log((yield* Effect.flip(addDomain(account, handbook, "docs.example.com")))._tag)
  yield* recordProjectDeploy(account, handbook, "succeeded")

  const added = yield* addDomain(account, handbook, "Docs.Example.com")
  console.log(added.hostname, added.status, added.dnsRecord.type, added.dnsRecord.value)
  // Nobody else has or had the name: the CNAME alone verifies it.
  console.log(added.ownership.type, added.ownership.name, added.ownership.required)
  const verified = yield* verifyNow(account, handbook, "docs.example.com")
  console.log(verified.status, verified.certificate.status)

  const round = yield* checkDueCustomDomains({
    holder: "example",
    batchSize: 10,
    concurrency: 2,
    lease: "1 minute"
  })
  const issued = yield* getDomain(account, handbook, "docs.example.com")
  console.log(round, issued.certificate.status, certificates.size)
  console.log(
    yield* resolveEdge("DOCS.example.com:443"),
    yield* resolveEdge("handbook.docs.example-platform.com")
  )

  yield* removeDomain(account, handbook, "docs.example.com")
  // The owner let a verified name go: another account needs its TXT record for 30 days.
  console.log(yield* resolveEdge("docs.example.com"), certificates.size, releases.size)
  console.log((yield* Effect.flip(getDomain(account, handbook, "docs.example.com")))._tag)
})

const MemoryDecidedWrites = Layer.succeed(
  DecidedWritesStore,
  DecidedWritesStore.of({
    // One fiber writes here: the writes are applied one after the other, each checked first.
    storeDecided: ({ claims: decidedClaims, domains: decidedDomains }) =>
      Effect.sync(() => {
        const asDecided =
          decidedDomains.every((domain) => domains.get(keyOf(domain))?.version === domain.version) &&
          decidedClaims.every((claim) => claims.get(claimKey(claim))?.version === claim.version)
        if (!asDecided) return false
        for (const domain of decidedDomains) replace(domain)
        for (const claim of decidedClaims) storeClaim(claim, true)
        return true
      })
  })
)

const Ports = Layer.mergeAll(
  MemoryProjects,
  MemoryConfigs,
  MemoryDomains,
  MemoryDecidedWrites,
  MemoryClaims,
  MemoryOwnership,
  MemoryCertificates,
  Dns,
  InstantCa,
  Platform
)
Effect.runPromise(program.pipe(Effect.provide(Ports)))

// Output:
// PlanRequired
// DeployRequired
// docs.example.com pending CNAME cname.example-sites.net
// TXT _petstore-challenge.docs.example.com false
// verified pending
// { claimed: 1, completed: 1, abandoned: 0 } issued 1
// { action: 'serve', projectId: 'handbook' } { action: 'serve', projectId: 'handbook' }
// { action: 'none' } 0 1
// DomainNotFound
