/**
 * A running edge on 127.0.0.1 (ports chosen by the system) over the in-memory stores, with a local
 * CA for real certificates, and the domain steps the tests set state up with: projects and domains
 * go through the domain's own use cases, so the edge sees exactly what the product would store.
 */
import { LocalCertificateAuthority } from "@petstore/acme"
import { CertificateStore, Http01ChallengeStore } from "@petstore/certificates"
import { addDomain } from "@petstore/custom-domains"
import { CustomDomain, CustomDomainRepository, type Hostname, PlatformSettings } from "@petstore/domains"
import { AccountName } from "@petstore/kernel"
import {
  createProject,
  type Plan,
  ProjectId,
  ProjectRepository,
  recordProjectDeploy
} from "@petstore/projects"
import { DomainConfigRepository } from "@petstore/serving"
import { MemoryStore } from "@petstore/store-memory"
import { Context, Effect, Layer, Option } from "effect"
import type { EdgeServices } from "../../src/EdgeApps.js"
import { EdgeServer } from "../../src/index.js"

export const account = AccountName.make("docs-team")

export const settingsLayer = Layer.succeed(PlatformSettings, {
  platformDomain: "docs.test",
  cnameTarget: "cname.docs.test",
  caIdentifier: "letsencrypt.org"
})

export const loopbackOptions: EdgeServer.EdgeOptions = { host: "127.0.0.1", httpPort: 0, httpsPort: 0 }

/** The edge over `stores`, with the stores themselves, the settings and a local CA. */
export const edgeOver = <A, E>(
  stores: Layer.Layer<A | Exclude<EdgeServices, PlatformSettings>, E>,
  options: Partial<EdgeServer.EdgeOptions> = {}
) =>
  EdgeServer.layer({ ...loopbackOptions, ...options }).pipe(
    Layer.provideMerge(Layer.merge(stores, settingsLayer)),
    Layer.merge(LocalCertificateAuthority.layer())
  )

/** The edge over fresh in-memory stores, for one test file. */
export const TestEdgeLive = edgeOver(MemoryStore.layer)

/** How many lookups the edge made in storage, of each kind. */
export class StorageLookups extends Context.Service<
  StorageLookups,
  { readonly hostnames: () => number; readonly total: () => number }
>()("test/StorageLookups") {}

/**
 * Fresh in-memory stores whose every lookup the edge makes (verified domains by hostname, projects,
 * configs, certificates, challenges) is counted, with the counts.
 */
export const countedMemoryStores = Layer.effectContext(
  Effect.gen(function* () {
    const counts = { hostnames: 0, others: 0 }
    const counted =
      (kind: keyof typeof counts) =>
      <A, E, R>(lookup: Effect.Effect<A, E, R>) =>
        Effect.andThen(
          Effect.sync(() => {
            counts[kind]++
          }),
          lookup
        )
    const domains = yield* CustomDomainRepository
    const projects = yield* ProjectRepository
    const configs = yield* DomainConfigRepository
    const certificates = yield* CertificateStore
    const challenges = yield* Http01ChallengeStore
    return Context.make(
      CustomDomainRepository,
      CustomDomainRepository.of({
        ...domains,
        findVerified: (hostname) => counted("hostnames")(domains.findVerified(hostname))
      })
    ).pipe(
      Context.add(
        ProjectRepository,
        ProjectRepository.of({
          ...projects,
          findById: (id) => counted("others")(projects.findById(id))
        })
      ),
      Context.add(
        DomainConfigRepository,
        DomainConfigRepository.of({ ...configs, find: (id) => counted("others")(configs.find(id)) })
      ),
      Context.add(
        CertificateStore,
        CertificateStore.of({
          ...certificates,
          find: (hostname) => counted("others")(certificates.find(hostname))
        })
      ),
      Context.add(
        Http01ChallengeStore,
        Http01ChallengeStore.of({ ...challenges, find: (token) => counted("others")(challenges.find(token)) })
      ),
      Context.add(
        StorageLookups,
        StorageLookups.of({
          hostnames: () => counts.hostnames,
          total: () => counts.hostnames + counts.others
        })
      )
    )
  })
).pipe(Layer.provideMerge(MemoryStore.layer))

/** A project of `owner` on `plan` with a successful deploy: what custom domains need. */
export const deployedProject = (id: string, plan: Plan = "pro", owner: AccountName = account) =>
  Effect.gen(function* () {
    const projectId = ProjectId.make(id)
    yield* createProject(owner, projectId, plan)
    yield* recordProjectDeploy(owner, projectId, "succeeded")
    return projectId
  })

/** A domain added to `projectId` and marked verified, as the worker would once DNS checks out. */
export const verifiedDomain = (projectId: ProjectId, hostname: string, owner: AccountName = account) =>
  Effect.gen(function* () {
    const domain = yield* addDomain(owner, projectId, hostname)
    const domains = yield* CustomDomainRepository
    yield* domains.update(new CustomDomain({ ...domain, status: "verified" }))
    return domain.hostname
  })

/**
 * A certificate for `hostname` from the local CA, kept in the CertificateStore as the issuer would:
 * for its verified domain as it is stored (dies when none is).
 */
export const issueCertificate = (hostname: Hostname) =>
  Effect.gen(function* () {
    const authority = yield* LocalCertificateAuthority.LocalCertificateAuthority
    const issued = yield* authority.issue(hostname)
    const verified = yield* Effect.flatMap(CustomDomainRepository, (domains) =>
      domains.findVerified(hostname)
    )
    if (Option.isNone(verified)) return yield* Effect.die(new Error(`no verified domain ${hostname}`))
    const certificates = yield* CertificateStore
    const kept = yield* certificates.save(verified.value, {
      certificatePem: issued.certificatePem,
      chainPem: issued.chainPem,
      privateKeyPem: issued.privateKeyPem,
      notAfter: issued.notAfter
    })
    if (!kept) return yield* Effect.die(new Error(`the certificate of ${hostname} was not kept`))
    return issued
  })

/** A project on Pro with one verified domain that has a certificate. */
export const servedDomain = (id: string, hostname: string) =>
  Effect.gen(function* () {
    const projectId = yield* deployedProject(id)
    const domain = yield* verifiedDomain(projectId, hostname)
    const issued = yield* issueCertificate(domain)
    return { projectId, hostname: domain, issued }
  })

/** The local CA's root: the one certificate the tests' TLS clients trust. */
export const trustedRoot = Effect.map(
  LocalCertificateAuthority.LocalCertificateAuthority,
  (authority) => authority.rootCertificatePem
)
