/**
 * The custom-domain use cases, written against the ports only. Every operation on a project goes
 * through its owner: another account's project is not found, never forbidden.
 */

import type { AccountName, StorageError } from "@petstore/kernel"
import { Array as Arr, DateTime, Duration, Effect, Option, Predicate, Random, Result, Schema } from "effect"
import { CertificateStore } from "./CertificateIssuer.js"
import { isRetryable } from "./CertificateLifecycle.js"
import { ClaimRepository } from "./ClaimRepository.js"
import type { CustomDomain } from "./CustomDomain.js"
import {
  applyVerdict,
  hasLostOwnership,
  loseOwnership,
  newCustomDomain,
  restartVerificationWindow,
  withOwnershipRequired
} from "./CustomDomainLifecycle.js"
import type { Problem } from "./CustomDomainProblem.js"
import {
  CustomDomainRepository,
  type DecidedWrites,
  type HostnameHold,
  isRivalOf
} from "./CustomDomainRepository.js"
import { type Decision, decideAndStore, noWrites, writtenDomain } from "./DecidedWrites.js"
import type { DnsAnswer } from "./DnsAnswer.js"
import * as DnsName from "./DnsName.js"
import { DnsResolver } from "./DnsResolver.js"
import {
  type DomainConfig,
  defaultDomainConfig,
  normaliseDomainConfig,
  validateDomainConfig,
  withoutDomain
} from "./DomainConfig.js"
import { decideForCustomDomain, decideForDefaultHostname, type EdgeDecision } from "./EdgeDecision.js"
import {
  DeployRequired,
  DomainClaimed,
  DomainNotFound,
  InvalidDomainRequest,
  NotReverifiable,
  PlanRequired,
  ProjectNotFound
} from "./Errors.js"
import { Hostname, normaliseHostname } from "./Hostname.js"
import { requestCertificate } from "./IssuanceSchedule.js"
import { Limits } from "./Limits.js"
import {
  needsRecord,
  type OwnershipFacts,
  type OwnershipProof,
  type OwnershipRequirement,
  ownershipLostProblem,
  ownershipProof,
  ownershipRequirement,
  recentHoldWindow,
  wildcardProbeName,
  wildcardProblem
} from "./Ownership.js"
import { OwnershipRepository } from "./OwnershipRepository.js"
import { verdictWithOwnership } from "./OwnershipVerdict.js"
import { isPaidPlan, type Plan } from "./Plan.js"
import { customHostname, PlatformSettings, reservedNamesOf } from "./PlatformSettings.js"
import {
  Deploy,
  type DeployStatus,
  defaultHostnameOf,
  hasSucceededDeploy,
  Project,
  type ProjectId,
  ProjectId as ProjectIdSchema,
  recordDeploy
} from "./Project.js"
import { ProjectRepository } from "./ProjectRepository.js"
import { type VerificationVerdict, verdictFromDns } from "./VerificationVerdict.js"
import { isAnsweredBy, isCoolingDown } from "./VerifyCooldown.js"

const now = DateTime.nowAsDate

export const createProject = (account: AccountName, id: ProjectId, plan: Plan) =>
  Effect.gen(function* () {
    const project = new Project({
      id,
      account,
      plan,
      lastDeploy: null,
      lastSucceededDeployAt: null,
      createdAt: yield* now
    })
    const limits = yield* Limits
    yield* Effect.flatMap(ProjectRepository, (projects) => projects.insert(project, limits))
    return project
  })

/** The account's projects, a page at a time in ascending id order (`after`: the previous page's cursor). */
export const listProjects = (
  account: AccountName,
  page: { readonly after: Option.Option<ProjectId>; readonly limit: number }
) => Effect.flatMap(ProjectRepository, (projects) => projects.listOwned({ account, ...page }))

export const findOwnedProject = (account: AccountName, id: ProjectId) =>
  Effect.flatMap(ProjectRepository, (projects) => projects.findOwned(account, id)).pipe(
    Effect.flatMap(
      Option.match({ onNone: () => Effect.fail(new ProjectNotFound({ id })), onSome: Effect.succeed })
    )
  )

export const changePlan = (account: AccountName, id: ProjectId, plan: Plan) =>
  Effect.gen(function* () {
    const project = new Project({ ...(yield* findOwnedProject(account, id)), plan })
    yield* Effect.flatMap(ProjectRepository, (projects) => projects.update(project))
    return project
  })

export const recordProjectDeploy = (account: AccountName, id: ProjectId, status: DeployStatus) =>
  Effect.gen(function* () {
    const project = recordDeploy(yield* findOwnedProject(account, id), new Deploy({ status, at: yield* now }))
    yield* Effect.flatMap(ProjectRepository, (projects) => projects.update(project))
    return project
  })

const defaultHostname = (id: ProjectId) =>
  Effect.map(PlatformSettings, (settings) => defaultHostnameOf(id, settings.platformDomain))

const configOf = (id: ProjectId) =>
  Effect.gen(function* () {
    const stored = yield* Effect.flatMap(ProjectRepository, (projects) => projects.findConfig(id))
    return Option.isSome(stored) ? stored.value : defaultDomainConfig(yield* defaultHostname(id))
  })

export const listDomains = (account: AccountName, id: ProjectId) =>
  Effect.gen(function* () {
    yield* findOwnedProject(account, id)
    const domains = yield* Effect.flatMap(CustomDomainRepository, (repository) =>
      repository.listByProject(id)
    )
    return { domains, config: yield* configOf(id) }
  })

/** A hold's rivals (other accounts' domains with its hostname) and what the ownership rules read about it. */
export interface HostnameOwnership {
  readonly rivals: ReadonlyArray<CustomDomain>
  readonly facts: OwnershipFacts
}

const apexOf = (hostname: Hostname): Hostname | undefined =>
  Option.getOrUndefined(Option.map(DnsName.registrableDomain(hostname), Hostname.make))

/**
 * What the ownership rules read about each of `holds` (see `Ownership`), in one query per store
 * whatever their number: a worker round reads its checks' facts at once instead of three queries a
 * domain. The answer is for those holds only.
 */
export const ownershipFactsOf = (holds: ReadonlyArray<HostnameHold>) =>
  Effect.gen(function* () {
    const since = new Date((yield* now).getTime() - Duration.toMillis(recentHoldWindow))
    const hostnames = Arr.dedupe(holds.map((hold) => hold.hostname))
    const apexByHostname = new Map(hostnames.map((hostname) => [hostname, apexOf(hostname)]))
    const apexes = Arr.dedupe(Arr.filter([...apexByHostname.values()], Predicate.isNotUndefined))
    const [rivals, releases, claims] =
      holds.length === 0
        ? [[], [], []]
        : yield* Effect.all(
            [
              Effect.flatMap(CustomDomainRepository, (domains) => domains.listRivals(holds)),
              Effect.flatMap(OwnershipRepository, (ownership) => ownership.releasesSince(hostnames, since)),
              apexes.length === 0
                ? Effect.succeed([])
                : Effect.flatMap(ClaimRepository, (repository) => repository.listByApexes(apexes))
            ],
            { concurrency: "unbounded" }
          )
    const domainsOf = Arr.groupBy(rivals, (domain) => domain.hostname)
    const releasesOf = Arr.groupBy(releases, (release) => release.hostname)
    const claimsOf = Arr.groupBy(claims, (claim) => claim.apex)
    return (hold: HostnameHold): HostnameOwnership => {
      const { hostname } = hold
      const rivalsOfHold = (domainsOf[hostname] ?? []).filter(isRivalOf(hold))
      const apex = apexByHostname.get(hostname) ?? apexOf(hostname)
      return {
        rivals: rivalsOfHold,
        facts: {
          holders: rivalsOfHold.map((domain) => domain.account),
          releases: releasesOf[hostname] ?? [],
          claims: apex === undefined ? [] : (claimsOf[apex] ?? [])
        }
      }
    }
  })

/** What the ownership rules read about one hold. */
export const ownershipOf = (hold: HostnameHold) =>
  Effect.map(ownershipFactsOf([hold]), (ownershipFor) => ownershipFor(hold))

export const addDomain = (account: AccountName, id: ProjectId, hostnameText: string) =>
  Effect.gen(function* () {
    const project = yield* findOwnedProject(account, id)
    const settings = yield* PlatformSettings
    const hostname = yield* customHostname(hostnameText).pipe(
      Effect.mapError((rule) => new InvalidDomainRequest({ message: `hostname: ${rule}` }))
    )
    if (!isPaidPlan(project.plan)) return yield* new PlanRequired()
    if (!hasSucceededDeploy(project)) return yield* new DeployRequired()
    const addedAt = yield* now
    const { facts, rivals } = yield* ownershipOf({ account, hostname })
    const requirement = ownershipRequirement(account, facts, addedAt)
    if (requirement._tag === "ClaimedByOther") return yield* new DomainClaimed({ hostname })
    const token = yield* Effect.flatMap(OwnershipRepository, (ownership) =>
      ownership.tokenFor(account, hostname)
    )
    const domain = newCustomDomain(
      { account, projectId: id },
      hostname,
      { token, required: needsRecord(requirement) },
      settings.cnameTarget,
      addedAt
    )
    const limits = yield* Limits
    yield* Effect.flatMap(CustomDomainRepository, (repository) => repository.insert(domain, limits))
    // The other accounts' domains are contested from now on: their record is required too.
    yield* Effect.forEach(rivals, markContested, { discard: true })
    return domain
  })

/**
 * `rival` shows its record as required, decided again from the stored domain should it change
 * meanwhile.
 */
const markContested = (rival: CustomDomain) =>
  decideAndStore(
    Effect.map(
      Effect.flatMap(CustomDomainRepository, (repository) =>
        repository.findInProject(rival.projectId, rival.hostname)
      ),
      (stored): Decision<void> => ({
        answer: undefined,
        writes:
          Option.isNone(stored) || stored.value.ownership.required
            ? noWrites
            : { domains: [withOwnershipRequired(stored.value, true)], claims: [] }
      })
    ),
    Effect.void
  )

/** A hostname from a path: anything that does not normalise names no domain. */
const findDomain = (account: AccountName, id: ProjectId, hostnameText: string) =>
  Effect.gen(function* () {
    yield* findOwnedProject(account, id)
    const notFound = new DomainNotFound({ hostname: hostnameText })
    const hostname = yield* customHostname(hostnameText).pipe(Effect.mapError(() => notFound))
    const found = yield* Effect.flatMap(CustomDomainRepository, (repository) =>
      repository.findInProject(id, hostname)
    )
    return yield* Option.match(found, { onNone: () => Effect.fail(notFound), onSome: Effect.succeed })
  })

export const getDomain = findDomain

/** What stands for an answer the rules do not read: a question not asked. */
const notAsked: DnsAnswer<string> = { _tag: "NoRecords", reason: "nodata" }

/**
 * Asks DNS about a domain what the verification rules read: the verdict on what the resolver answered.
 * An apex's CNAME and addresses and the target's are asked at once; a subdomain's addresses matter only
 * when it has no CNAME (they would block one), so they are asked then only: two questions (A and AAAA)
 * fewer for every subdomain that has its record, or a CNAME elsewhere.
 */
export const observeDomain = (domain: CustomDomain) =>
  Effect.gen(function* () {
    const dns = yield* DnsResolver
    const { cnameTarget } = yield* PlatformSettings
    if (domain.kind === "apex") {
      const [cname, addresses, targetAddresses] = yield* Effect.all(
        [dns.cname(domain.hostname), dns.addresses(domain.hostname), dns.addresses(cnameTarget)],
        { concurrency: "unbounded" }
      )
      return verdictFromDns(domain.hostname, domain.kind, cnameTarget, { cname, addresses, targetAddresses })
    }
    const cname = yield* dns.cname(domain.hostname)
    const addresses = cname._tag === "NoRecords" ? yield* dns.addresses(domain.hostname) : notAsked
    return verdictFromDns(domain.hostname, domain.kind, cnameTarget, {
      cname,
      addresses,
      targetAddresses: notAsked
    })
  })

const labelAlphabet = "0123456789abcdefghijklmnopqrstuvwxyz"

/**
 * Ten letters and digits from one draw in [0, 1), its base-36 digits one after the other: 36¹⁰ is
 * below 2⁵³, a draw's precision.
 */
const base36Digits = (draw: number): string => {
  let digits = ""
  let rest = draw
  for (let index = 0; index < 10; index++) {
    rest *= labelAlphabet.length
    const digit = Math.floor(rest)
    digits += labelAlphabet[digit]
    rest -= digit
  }
  return digits
}

/** A label nobody names by chance: 20 letters and digits, from two draws (one per check's probe). */
const randomLabel = Effect.map(
  Effect.all([Random.next, Random.next]),
  ([first, second]) => base36Digits(first) + base36Digits(second)
)

/** `wildcard_record` when a random name under the hostname's parent reaches the platform target too. */
const observeWildcard = (hostname: Hostname) =>
  Effect.gen(function* () {
    const probe = wildcardProbeName(hostname, yield* randomLabel)
    const apex = DnsName.registrableDomain(hostname)
    if (probe === undefined || Option.isNone(apex)) return []
    const { cnameTarget } = yield* PlatformSettings
    const answer = yield* Effect.flatMap(DnsResolver, (dns) => dns.cname(probe))
    return answer._tag === "Records" && answer.records.some((value) => DnsName.equals(value, cnameTarget))
      ? [wildcardProblem(hostname, probe, apex.value)]
      : []
  })

/** A check's outcome: the domain, and the other accounts' domains that lost the hostname to it. */
export interface DomainCheck {
  readonly domain: CustomDomain
  readonly losers: ReadonlyArray<CustomDomain>
}

/** What a check asked DNS, under the requirement that decided what to ask. */
export interface CheckObservation {
  readonly requirement: OwnershipRequirement["_tag"]
  readonly verdict: VerificationVerdict
  readonly proof: OwnershipProof | undefined
  readonly wildcard: ReadonlyArray<Problem>
}

/** Asks DNS what the rules read under `requirement`: the record, the TXT proof when required, the wildcard probe. */
const observeCheck = (domain: CustomDomain, requirement: OwnershipRequirement) =>
  Effect.gen(function* () {
    const dns = yield* DnsResolver
    const [verdict, proof, wildcard] = yield* Effect.all(
      [
        observeDomain(domain),
        requirement._tag === "Required"
          ? Effect.map(dns.txt(domain.ownership.name), (answer) =>
              ownershipProof(answer, domain.ownership.value)
            )
          : Effect.succeed(undefined),
        requirement._tag === "ProvedByClaim" ? Effect.succeed([]) : observeWildcard(domain.hostname)
      ],
      { concurrency: "unbounded" }
    )
    return { requirement: requirement._tag, verdict, proof, wildcard } satisfies CheckObservation
  })

/**
 * The outcome of a check at `checkedAt` of `domain` with `ownership`, its hostname's, from what DNS
 * said (pure rules). When the domain proves ownership, the other accounts' domains with its hostname
 * lose it. A domain that lost its name to another account's proof stays lost, while a rival is
 * verified, until it proves ownership itself: clicking Verify without the record must not make the
 * loser a contender again.
 */
const decideCheck = (
  domain: CustomDomain,
  ownership: HostnameOwnership,
  requirement: Exclude<OwnershipRequirement, { readonly _tag: "ClaimedByOther" }>,
  observation: CheckObservation,
  checkedAt: Date
): DomainCheck => {
  const { rivals } = ownership
  const { proof, verdict, wildcard } = observation
  const contested = withOwnershipRequired(domain, needsRecord(requirement))
  const lost = ownershipLostProblem(domain.hostname, "proved")
  const staysLost =
    requirement._tag === "Required" &&
    proof?._tag !== "Found" &&
    domain.verification.problems.some((problem) => problem.code === "ownership_lost") &&
    rivals.some((rival) => rival.status === "verified")
  if (staysLost) return { domain: loseOwnership(contested, lost, checkedAt), losers: [] }
  const outcome = verdictWithOwnership(domain.hostname, domain.status, domain.ownership, verdict, {
    requirement,
    proof,
    wildcard
  })
  const checked = applyVerdict(contested, outcome.verdict, checkedAt)
  const losers =
    outcome.proved && checked.status === "verified"
      ? rivals
          .filter((rival) => !hasLostOwnership(rival))
          .map((rival) => loseOwnership(rival, lost, checkedAt))
      : []
  return { domain: checked, losers }
}

/**
 * Asks DNS about a domain and applies the verdict with the ownership rules to it and `ownership`, its
 * hostname's (see `decideCheck`); when another account's proved claim covers it, it loses itself.
 * `observed`, what an earlier attempt of the same decision asked, is used again when it was asked
 * under the same requirement: a decision taken again after a lost race reads the new state, not DNS
 * again. The observation comes back with the outcome.
 */
export const checkDomain = (
  domain: CustomDomain,
  ownership: HostnameOwnership,
  observed?: CheckObservation
) =>
  Effect.gen(function* () {
    const checkedAt = yield* now
    const requirement = ownershipRequirement(domain.account, ownership.facts, checkedAt)
    if (requirement._tag === "ClaimedByOther") {
      const lost = ownershipLostProblem(domain.hostname, "claimed", requirement.apex)
      return { domain: loseOwnership(domain, lost, checkedAt), losers: [], observation: observed }
    }
    const observation =
      observed !== undefined && observed.requirement === requirement._tag
        ? observed
        : yield* observeCheck(domain, requirement)
    return { ...decideCheck(domain, ownership, requirement, observation, checkedAt), observation }
  })

/** What storing a check writes: the losers and the domain, at once (see `storeDecided`). */
export const checkWrites = (check: DomainCheck): DecidedWrites => ({
  domains: [...check.losers, check.domain],
  claims: []
})

/** A decision on a domain, with what DNS said for it (to be used again if it must be taken again). */
interface DomainDecision extends Decision<CustomDomain> {
  readonly observation?: CheckObservation | undefined
}

/**
 * A decision on the domain of `account`'s project taken from its stored state, and stored
 * conditionally on it (see `decideAndStore`): `decide` gets the stored domain and what DNS said in an
 * earlier attempt, if any. A domain gone meanwhile is not found; when other writes keep coming first,
 * the answer is the domain as they left it.
 */
const decideOnDomain = <E, R>(
  account: AccountName,
  id: ProjectId,
  hostnameText: string,
  decide: (
    stored: CustomDomain,
    observed: CheckObservation | undefined
  ) => Effect.Effect<DomainDecision, E, R>
) =>
  Effect.suspend(() => {
    let observed: CheckObservation | undefined
    return decideAndStore(
      Effect.gen(function* () {
        const decision = yield* decide(yield* findDomain(account, id, hostnameText), observed)
        observed = decision.observation ?? observed
        return decision
      }),
      findDomain(account, id, hostnameText)
    )
  })

/**
 * Verify clicked: check DNS now, and give DNS another 48 hours if it does not verify yet. A check made
 * since the click, or within the cool-down of the last check, answers it as that check left the
 * domain (see `isAnsweredBy`).
 */
export const verifyNow = (account: AccountName, id: ProjectId, hostnameText: string) =>
  Effect.flatMap(now, (clickedAt) =>
    decideOnDomain(account, id, hostnameText, (stored, observed) =>
      Effect.gen(function* () {
        if (yield* isAnsweredBy(stored.verification.lastCheckedAt, clickedAt)) {
          return { answer: stored, writes: noWrites } satisfies DomainDecision
        }
        const checkedAt = yield* now
        const domain = restartVerificationWindow(stored, checkedAt)
        const check = yield* checkDomain(domain, yield* ownershipOf(domain), observed)
        return {
          answer: writtenDomain(check.domain),
          writes: checkWrites(check),
          observation: check.observation
        } satisfies DomainDecision
      })
    )
  )

/**
 * Re-verify, for a verified domain whose certificate is not issued (pending, with or without a
 * problem found, delayed, failed): check DNS again and, if the domain still verifies, ask for the
 * certificate afresh, due at once: the owner who fixed the cause need not wait for the worker's
 * backoff. Within the cool-down of the last check the domain is not checked again: the certificate
 * is asked for afresh on the stored verdict (its order checks the record and CAA again anyway).
 */
export const reverifyDomain = (account: AccountName, id: ProjectId, hostnameText: string) =>
  decideOnDomain(account, id, hostnameText, (stored, observed) =>
    Effect.gen(function* () {
      if (stored.status !== "verified" || !isRetryable(stored.certificate)) {
        return yield* new NotReverifiable({
          hostname: stored.hostname,
          reason: `re-verify is for a verified domain whose certificate is not issued; this one is ${stored.status}, its certificate ${stored.certificate.status}`
        })
      }
      const checkedAt = yield* now
      if (yield* isCoolingDown(stored.verification.lastCheckedAt, checkedAt)) {
        const asked = requestCertificate(stored, checkedAt)
        return {
          answer: writtenDomain(asked),
          writes: { domains: [asked], claims: [] }
        } satisfies DomainDecision
      }
      const check = yield* checkDomain(
        restartVerificationWindow(stored, checkedAt),
        yield* ownershipOf(stored),
        observed
      )
      const checked =
        check.domain.status === "verified" ? requestCertificate(check.domain, checkedAt) : check.domain
      return {
        answer: writtenDomain(checked),
        writes: checkWrites({ ...check, domain: checked }),
        observation: check.observation
      } satisfies DomainDecision
    })
  )

/**
 * Removes the domain. What follows is decided from the row actually deleted, as it was then (a
 * check may have changed it since it was read): only a verified one was served with the hostname's
 * certificate and is a release of the name; another account's domain with the same hostname keeps
 * whatever the winner has.
 */
export const removeDomain = (account: AccountName, id: ProjectId, hostnameText: string) =>
  Effect.gen(function* () {
    const domain = yield* findDomain(account, id, hostnameText)
    const projects = yield* ProjectRepository
    const stored = yield* projects.findConfig(id)
    if (Option.isSome(stored)) {
      yield* projects.saveConfig(id, withoutDomain(stored.value, domain.hostname, yield* defaultHostname(id)))
    }
    const removed = yield* Effect.flatMap(CustomDomainRepository, (repository) =>
      repository.remove(id, domain.hostname)
    )
    if (Option.isNone(removed)) return yield* new DomainNotFound({ hostname: hostnameText })
    if (removed.value.status === "verified") {
      const removedAt = yield* now
      yield* Effect.flatMap(OwnershipRepository, (ownership) =>
        ownership.recordRelease(account, domain.hostname, removedAt)
      )
      yield* Effect.flatMap(CertificateStore, (certificates) => certificates.remove(domain.hostname))
    }
  })

export const getDomainConfig = (account: AccountName, id: ProjectId) =>
  Effect.andThen(findOwnedProject(account, id), configOf(id))

export const putDomainConfig = (account: AccountName, id: ProjectId, config: DomainConfig) =>
  Effect.gen(function* () {
    yield* findOwnedProject(account, id)
    const domains = yield* Effect.flatMap(CustomDomainRepository, (repository) =>
      repository.listByProject(id)
    )
    const valid = yield* Result.match(
      validateDomainConfig(normaliseDomainConfig(config), yield* defaultHostname(id), domains),
      {
        onFailure: (rule) => Effect.fail(new InvalidDomainRequest({ message: rule })),
        onSuccess: Effect.succeed
      }
    )
    yield* Effect.flatMap(ProjectRepository, (projects) => projects.saveConfig(id, valid))
    return valid
  })

/**
 * The edge's decision for `host` with the project it was taken from: the project whose domain it is,
 * or that a default hostname names (whether or not it exists). Whoever keeps decisions drops them
 * when that project changes.
 */
export interface EdgeResolution {
  readonly decision: EdgeDecision
  readonly projectId: ProjectId | undefined
}

/** `resolveEdge`, with the project the decision depends on. */
export const resolveEdgeFrom = (host: string): Effect.Effect<EdgeResolution, StorageError, EdgeLookups> =>
  Effect.gen(function* () {
    const none: EdgeDecision = { action: "none" }
    const settings = yield* PlatformSettings
    const name = DnsName.fromHost(host)
    const projects = yield* ProjectRepository
    const label = DnsName.relativeTo(name, settings.platformDomain)
    if (Option.isSome(label)) {
      const id = Schema.decodeOption(ProjectIdSchema)(label.value)
      if (Option.isNone(id)) return { decision: none, projectId: undefined }
      const project = yield* projects.findById(id.value)
      return {
        decision: Option.match(project, { onNone: () => none, onSome: decideForDefaultHostname }),
        projectId: id.value
      }
    }
    const hostname = normaliseHostname(name, reservedNamesOf(settings))
    if (Result.isFailure(hostname)) return { decision: none, projectId: undefined }
    const domain = yield* Effect.flatMap(CustomDomainRepository, (repository) =>
      repository.findVerified(hostname.success)
    )
    if (Option.isNone(domain)) return { decision: none, projectId: undefined }
    const projectId = domain.value.projectId
    const project = yield* projects.findById(projectId)
    if (Option.isNone(project)) return { decision: none, projectId }
    return {
      decision: decideForCustomDomain(domain.value, project.value, yield* configOf(project.value.id)),
      projectId
    }
  })

/** What the edge's decision reads. */
export type EdgeLookups = PlatformSettings | ProjectRepository | CustomDomainRepository

/**
 * The edge's question: what to do with a request for `host`, a Host header or TLS server name (see
 * `DnsName.fromHost`: a port or trailing dot is ignored, an internationalised name may be in either form).
 */
export const resolveEdge = (host: string): Effect.Effect<EdgeDecision, StorageError, EdgeLookups> =>
  Effect.map(resolveEdgeFrom(host), (resolution) => resolution.decision)
