/**
 * A custom domain's whole life through the use cases, over in-memory adapters of the ports: the
 * project's plan and deploy gate it, Verify checks DNS, a worker round gets its certificate, the
 * edge serves it, and removing it stops that at once.
 */

import {
  addDomain,
  CertificateIssuer,
  CertificateStore,
  type CustomDomain,
  CustomDomainRepository,
  changePlan,
  checkDueCustomDomains,
  createProject,
  type DnsAnswer,
  DnsResolver,
  type DomainConfig,
  getDomain,
  HostnameTaken,
  OrderRef,
  PlatformSettings,
  type Project,
  ProjectId,
  ProjectIdTaken,
  ProjectRepository,
  recordProjectDeploy,
  removeDomain,
  resolveEdge,
  type StoredCertificate,
  verifyNow,
  workDueAt
} from "@petstore/custom-domains"
import { defaultAccountName } from "@petstore/kernel"
import { Duration, Effect, Layer, Option, Redacted } from "effect"

const projects = new Map<string, Project>()
const configs = new Map<string, DomainConfig>()
const domains = new Map<string, CustomDomain>()
const certificates = new Map<string, StoredCertificate>()

const MemoryProjects = Layer.succeed(
  ProjectRepository,
  ProjectRepository.of({
    insert: (project) =>
      projects.has(project.id)
        ? Effect.fail(new ProjectIdTaken({ id: project.id }))
        : Effect.sync(() => void projects.set(project.id, project)),
    findById: (id) => Effect.sync(() => Option.fromNullishOr(projects.get(id))),
    findOwned: (account, id) =>
      Effect.sync(() =>
        Option.filter(Option.fromNullishOr(projects.get(id)), (found) => found.account === account)
      ),
    update: (project) => Effect.sync(() => void projects.set(project.id, project)),
    findConfig: (id) => Effect.sync(() => Option.fromNullishOr(configs.get(id))),
    saveConfig: (id, config) => Effect.sync(() => void configs.set(id, config))
  })
)

// One process, no competing workers: a lease is nothing to keep here.
const dueAt = (now: Date) =>
  [...domains.values()].filter((domain) => (workDueAt(domain)?.getTime() ?? Infinity) <= now.getTime())
/** Replaces a stored domain; false when it is gone. */
const replace = (domain: CustomDomain): boolean => {
  if (!domains.has(domain.hostname)) return false
  domains.set(domain.hostname, domain)
  return true
}

const MemoryDomains = Layer.succeed(
  CustomDomainRepository,
  CustomDomainRepository.of({
    insert: (domain) =>
      domains.has(domain.hostname)
        ? Effect.fail(new HostnameTaken({ hostname: domain.hostname }))
        : Effect.sync(() => void domains.set(domain.hostname, domain)),
    findByHostname: (hostname) => Effect.sync(() => Option.fromNullishOr(domains.get(hostname))),
    listByProject: (projectId) =>
      Effect.sync(() => [...domains.values()].filter((domain) => domain.projectId === projectId)),
    update: (domain) => Effect.sync(() => replace(domain)),
    remove: (projectId, hostname) =>
      Effect.sync(() => domains.get(hostname)?.projectId === projectId && domains.delete(hostname)),
    claimDue: (now, limit) => Effect.sync(() => dueAt(now).slice(0, limit)),
    countDue: (now) => Effect.sync(() => dueAt(now).length),
    releaseLease: () => Effect.void,
    completeChecks: (checked) => Effect.sync(() => checked.filter(replace).map((domain) => domain.hostname))
  })
)

const MemoryCertificates = Layer.succeed(
  CertificateStore,
  CertificateStore.of({
    save: (hostname, certificate) => Effect.sync(() => void certificates.set(hostname, certificate)),
    find: (hostname) => Effect.sync(() => Option.fromNullishOr(certificates.get(hostname))),
    remove: (hostname) => Effect.sync(() => void certificates.delete(hostname))
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
  console.log(yield* resolveEdge("docs.example.com"), certificates.size)
  console.log((yield* Effect.flip(getDomain(account, handbook, "docs.example.com")))._tag)
})

const Ports = Layer.mergeAll(MemoryProjects, MemoryDomains, MemoryCertificates, Dns, InstantCa, Platform)
Effect.runPromise(program.pipe(Effect.provide(Ports)))

// Output:
// PlanRequired
// DeployRequired
// docs.example.com pending CNAME cname.example-sites.net
// verified pending
// { claimed: 1, completed: 1, abandoned: 0 } issued 1
// { action: 'serve', projectId: 'handbook' } { action: 'serve', projectId: 'handbook' }
// { action: 'none' } 0
// DomainNotFound
