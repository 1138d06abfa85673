/**
 * Builders shared by the repository contract suites: valid animals, fresh idempotency scopes and API
 * key records, a reader that follows every page of a listing, fresh projects, hostnames, ownership
 * tokens and domains, stored domains and claims, and issued certificates.
 */
import {
  CategoryId,
  IdempotencyKey,
  type IdempotencyScope,
  ListLimit,
  NewPet,
  type Pet,
  type PetId,
  PetName,
  type PetQuery,
  PetRepository,
  type PetStatus
} from "@petstore/catalogue"
import type { StoredCertificate } from "@petstore/certificates"
import {
  applyVerdict,
  type CustomDomain,
  CustomDomainRepository,
  Hostname,
  type HostnameTaken,
  makeCustomDomain,
  newCustomDomain,
  OwnershipToken
} from "@petstore/domains"
import {
  AccountName,
  ApiKeyRecord,
  defaultLimits,
  generateApiKeyId,
  hashApiKeyToken,
  type LimitReached,
  type LimitValues,
  type StorageError
} from "@petstore/kernel"
import { Claim, ClaimRepository, newClaim, writtenDomain } from "@petstore/ownership"
import { type Plan, Project, ProjectId, type ProjectIdTaken, ProjectRepository } from "@petstore/projects"
import { Effect, Option, Redacted } from "effect"
import { Base64, Hex } from "effect/encoding"

/** A fixed instant, far from any edge of the retention windows. */
export const t0 = new Date("2026-03-01T12:00:00.000Z")

export const later = (date: Date, millis: number): Date => new Date(date.getTime() + millis)

const randomHex = (length: number): Effect.Effect<string> =>
  Effect.sync(() => {
    const bytes = new Uint8Array(length)
    globalThis.crypto.getRandomValues(bytes)
    return Hex.encode(bytes)
  })

export const randomToken: Effect.Effect<string> = randomHex(12)

/** A token as `OwnershipRepository.tokenFor` makes one: 128 random bits, 32 lower-case hex digits. */
export const freshOwnershipToken: Effect.Effect<OwnershipToken> = Effect.map(randomHex(16), (hex) =>
  OwnershipToken.make(hex)
)

export const newPet = (
  name: string,
  options: { readonly status?: PetStatus; readonly categoryId?: number } = {}
): NewPet =>
  new NewPet({
    name: PetName.make(name),
    categoryId: CategoryId.make(options.categoryId ?? 1),
    ...(options.status === undefined ? {} : { status: options.status })
  })

/** A scope nobody else uses: a fresh account and key, so suites tolerate data left by earlier tests. */
export const freshScope: Effect.Effect<IdempotencyScope> = Effect.map(randomToken, (token) => ({
  account: AccountName.make(`acct-${token}`),
  key: IdempotencyKey.make(`key-${token}`)
}))

export const freshApiKey = (account = "default", createdAt = t0): Effect.Effect<ApiKeyRecord> =>
  Effect.gen(function* () {
    const token = yield* randomToken
    return new ApiKeyRecord({
      id: yield* generateApiKeyId,
      account: AccountName.make(account),
      hash: yield* hashApiKeyToken(token),
      createdAt,
      revokedAt: Option.none()
    })
  })

/** Creates an animal whose id is a cursor before everything the test creates afterwards. */
export const createMarker: Effect.Effect<Pet, StorageError, PetRepository> = Effect.flatMap(
  PetRepository,
  (pets) => pets.create(newPet("marker"), Option.none())
)

export const query = (
  limit: number,
  options: { readonly status?: PetStatus; readonly after?: PetId } = {}
): PetQuery => ({
  limit: ListLimit.make(limit),
  status: Option.fromNullishOr(options.status),
  after: Option.fromNullishOr(options.after)
})

export interface Pages {
  readonly pets: ReadonlyArray<Pet>
  readonly pageSizes: ReadonlyArray<number>
}

/** Follows `nextAfter` from the first page to the last. */
export const listAllPages = (first: PetQuery): Effect.Effect<Pages, StorageError, PetRepository> =>
  Effect.gen(function* () {
    const repository = yield* PetRepository
    const pets: Array<Pet> = []
    const pageSizes: Array<number> = []
    let next: Option.Option<PetQuery> = Option.some(first)
    // The page cap keeps an implementation that always answers `nextAfter` from looping forever.
    while (Option.isSome(next) && pageSizes.length < 1000) {
      const page = yield* repository.list(next.value)
      pets.push(...page.pets)
      pageSizes.push(page.pets.length)
      next = Option.map(page.nextAfter, (after) => ({ ...first, after: Option.some(after) }))
    }
    return { pets, pageSizes }
  })

/** The platform target the DNS instructions of fixture domains point to. */
export const cnameTarget = "sites.docs-platform.test"

/** A project id and account nobody else uses. */
export const freshProject = (
  options: { readonly account?: string; readonly plan?: Plan; readonly createdAt?: Date } = {}
): Effect.Effect<Project> =>
  Effect.map(
    randomToken,
    (token) =>
      new Project({
        id: ProjectId.make(`p-${token}`),
        account: AccountName.make(options.account ?? `acct-${token}`),
        plan: options.plan ?? "pro",
        lastDeploy: null,
        lastSucceededDeployAt: null,
        createdAt: options.createdAt ?? t0
      })
  )

/** A hostname nobody else uses: `docs.<token>.com` (a subdomain) or `<token>.co.uk` (an apex). */
export const freshHostname = (kind: "subdomain" | "apex" = "subdomain"): Effect.Effect<Hostname> =>
  Effect.map(randomToken, (token) =>
    Hostname.make(kind === "apex" ? `h${token}.co.uk` : `docs.h${token}.com`)
  )

/**
 * A new pending domain of `project` (so of its account), not stored, with a fresh ownership token;
 * its TXT record is not required unless `required` says so.
 */
export const newDomainOf = (
  project: Pick<Project, "id" | "account">,
  hostname: Hostname,
  createdAt: Date = t0,
  required = false
): Effect.Effect<CustomDomain> =>
  Effect.map(freshOwnershipToken, (token) =>
    newCustomDomain(
      { account: project.account, projectId: project.id },
      hostname,
      { token, required },
      cnameTarget,
      createdAt
    )
  )

/** A new domain of a new project, both stored: for what must belong to a stored domain (certificates). */
export const storedDomain = (
  kind: "subdomain" | "apex" = "subdomain"
): Effect.Effect<
  CustomDomain,
  ProjectIdTaken | LimitReached | HostnameTaken | StorageError,
  ProjectRepository | CustomDomainRepository
> =>
  Effect.gen(function* () {
    const project = yield* freshProject()
    yield* Effect.flatMap(ProjectRepository, (projects) => projects.insert(project, defaultLimits))
    const domain = yield* newDomainOf(project, yield* freshHostname(kind))
    yield* Effect.flatMap(CustomDomainRepository, (domains) => domains.insert(domain, roomyLimits))
    return domain
  })

/** A new domain of a new project, stored and then verified (as a check stores it): what a certificate is for. */
export const verifiedStoredDomain = (
  kind: "subdomain" | "apex" = "subdomain"
): Effect.Effect<
  CustomDomain,
  ProjectIdTaken | HostnameTaken | LimitReached | StorageError,
  ProjectRepository | CustomDomainRepository
> =>
  Effect.gen(function* () {
    const verified = applyVerdict(yield* storedDomain(kind), { _tag: "Verified", problems: [] }, t0)
    const stored = yield* Effect.flatMap(CustomDomainRepository, (domains) => domains.update(verified))
    if (!stored) return yield* Effect.die(new Error(`${verified.hostname} could not be verified`))
    return writtenDomain(verified)
  })

/** An account nobody else uses. */
export const freshAccount: Effect.Effect<AccountName> = Effect.map(randomToken, (token) =>
  AccountName.make(`acct-${token}`)
)

/** A new pending claim of `apex` by `account` (not stored), with a fresh ownership token. */
export const newClaimOf = (
  account: AccountName,
  apex: Hostname,
  createdAt: Date = t0
): Effect.Effect<Claim> =>
  Effect.map(freshOwnershipToken, (token) => newClaim(account, apex, token, createdAt))

const pem = (label: string, body: string): string =>
  `-----BEGIN ${label}-----\n${Base64.encode(body).replace(/(.{64})/g, "$1\n")}\n-----END ${label}-----\n`

/** A certificate as a CA would issue it (PEM-shaped, not a real one), unique to this call. */
export const freshCertificate = (notAfter: Date = later(t0, 90 * 24 * 3_600_000 + 1)) =>
  Effect.map(
    randomToken,
    (token): StoredCertificate => ({
      certificatePem: pem("CERTIFICATE", `leaf ${token} `.repeat(20)),
      chainPem: pem("CERTIFICATE", `intermediate ${token} `.repeat(20)) + pem("CERTIFICATE", `root ${token}`),
      privateKeyPem: Redacted.make(pem("PRIVATE KEY", `secret key material ${token} — ✓ `.repeat(10))),
      notAfter
    })
  )

/**
 * `domain` as decided from the stored one with its key (its version): a write that follows others
 * in a test, as a use case would decide it after reading. Dies when there is none.
 */
export const decidedFromStored = (
  domain: CustomDomain
): Effect.Effect<CustomDomain, StorageError, CustomDomainRepository> =>
  Effect.flatMap(CustomDomainRepository, (domains) =>
    Effect.flatMap(domains.findInProject(domain.projectId, domain.hostname), (stored) =>
      Option.isNone(stored)
        ? Effect.die(new Error(`no stored domain ${domain.hostname} in ${domain.projectId}`))
        : Effect.succeed(makeCustomDomain({ ...domain, version: stored.value.version }))
    )
  )

/** `claim` as decided from the stored one of its account and apex (its version). Dies when there is none. */
export const claimDecidedFromStored = (claim: Claim): Effect.Effect<Claim, StorageError, ClaimRepository> =>
  Effect.flatMap(ClaimRepository, (claims) =>
    Effect.flatMap(claims.findOwned(claim.account, claim.apex), (stored) =>
      Option.isNone(stored)
        ? Effect.die(new Error(`no stored claim of ${claim.apex} by ${claim.account}`))
        : Effect.succeed(new Claim({ ...claim, version: stored.value.version }))
    )
  )

/**
 * Limits no contract case reaches unless it means to: the cases that are not about limits insert many
 * domains into one project, or claims for one account.
 */
export const roomyLimits: LimitValues = {
  ...defaultLimits,
  domainsPerProject: 1_000_000,
  claimsPerAccount: 1_000_000,
  pendingClaimsPerAccount: 1_000_000
}

/** Runs `insert` on every candidate at once: what the stored ones answered, and the refusals. */
export const insertAllAtOnce = <A, B, E, R>(
  candidates: ReadonlyArray<A>,
  insert: (candidate: A) => Effect.Effect<B, E, R>
): Effect.Effect<{ readonly stored: ReadonlyArray<B>; readonly refused: ReadonlyArray<E> }, never, R> =>
  Effect.map(
    Effect.forEach(candidates, (candidate) => Effect.result(insert(candidate)), { concurrency: "unbounded" }),
    (outcomes) => ({
      stored: outcomes.flatMap((outcome) => (outcome._tag === "Success" ? [outcome.success] : [])),
      refused: outcomes.flatMap((outcome) => (outcome._tag === "Failure" ? [outcome.failure] : []))
    })
  )
