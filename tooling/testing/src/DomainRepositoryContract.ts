/**
 * The behaviour every CustomDomainRepository must have (with the ProjectRepository whose projects own the
 * domains), as a test suite run against each adapter. Every test uses projects and hostnames of its
 * own; claims see every due domain of the store, so each claim test first leases whatever earlier
 * tests left due to a holder of its own, for centuries (`drainDue`). A domain is due at the earlier
 * of its next check and its certificate's next issuance attempt (`workDueAt`). A domain is named by
 * its project and hostname: a hostname is in one project per account, and several accounts may
 * hold it. Every write that changes a domain appends the events of its change (`domainEventTypes`),
 * and one that is refused appends none: the tests check the events beside the writes (the events'
 * own suite, DomainEventRepositoryContract, checks their times, paging and purge).
 */
import { describe, expect, layer, type Vitest } from "@effect/vitest"
import { certificateIssued, orderRefused, orderStarted, orderWaiting } from "@petstore/certificates"
import {
  applyVerdict,
  Certificate,
  CustomDomain,
  type CustomDomainKey,
  CustomDomainRepository,
  CustomDomainResource,
  Hostname,
  Issuance,
  loseOwnership,
  OrderRef,
  Problem,
  restartVerificationWindow,
  Verification,
  type VerificationVerdict,
  withOwnershipRequired,
  workDueAt
} from "@petstore/domains"
import { DomainEventRepository, domainEventTypes } from "@petstore/events"
import { defaultLimits } from "@petstore/kernel"
import { DecidedWritesStore, ownershipLostProblem } from "@petstore/ownership"
import { type Project, ProjectId, ProjectRepository } from "@petstore/projects"
import type { DomainConfigRepository } from "@petstore/serving"
import { Array as Arr, Effect, Exit, type Layer, Option, Schema } from "effect"
import {
  cnameTarget,
  decidedFromStored,
  freshAccount,
  freshHostname,
  freshProject,
  insertAllAtOnce,
  later,
  newDomainOf,
  randomToken,
  roomyLimits,
  t0
} from "./ContractFixtures.js"

export type DomainStore =
  | CustomDomainRepository
  | DecidedWritesStore
  | ProjectRepository
  | DomainConfigRepository
  | DomainEventRepository

export interface DomainRepositoryContractOptions {
  /** How many due domains the concurrent-claims test shares out (default 500). */
  readonly concurrentClaimDomains?: number
}

/** Every stored field, as plain values (dates as ISO strings, to the millisecond). */
const encodeDomain = Schema.encodeSync(CustomDomain)
/** A domain's fields as stored, but its version (which each write bumps: see the cases of conditional writes). */
const fields = (domain: CustomDomain) => {
  const { version: _version, ...stored } = encodeDomain(domain)
  return stored
}
const hostnamesOf = (domains: ReadonlyArray<CustomDomainKey>) => domains.map((domain) => domain.hostname)
const keyOf = (domain: CustomDomainKey): CustomDomainKey => ({
  projectId: domain.projectId,
  hostname: domain.hostname
})
const keysOf = (domains: ReadonlyArray<CustomDomainKey>) => domains.map(keyOf)
type KeyText = { readonly projectId: string; readonly hostname: string }
const byKey = (a: KeyText, b: KeyText) =>
  `${a.projectId} ${a.hostname}`.localeCompare(`${b.projectId} ${b.hostname}`)

/** The project's events, oldest first (fewer than a page in these tests). */
const eventsOf = (projectId: ProjectId) =>
  Effect.flatMap(DomainEventRepository, (events) =>
    Effect.map(events.listByProject({ projectId, after: Option.none(), limit: 100 }), (page) => page.events)
  )

const encodeResource = Schema.encodeSync(CustomDomainResource)

/** What the events of a domain's hostname say: their types, and the domain they carry (public fields). */
const toldOf = (projectId: ProjectId, hostname: Hostname) =>
  Effect.map(eventsOf(projectId), (events) =>
    events
      .filter((event) => event.hostname === hostname)
      .map((event) => [event.type, encodeResource(event.data)] as const)
  )

/** The stored domain with `domain`'s project and hostname. */
const findStored = (domain: CustomDomainKey) =>
  Effect.flatMap(CustomDomainRepository, (repository) =>
    repository.findInProject(domain.projectId, domain.hostname)
  )

const second = 1_000
const minute = 60 * second
const hour = 60 * minute
const day = 24 * hour

const unverified = (problems: ReadonlyArray<Problem>): VerificationVerdict => ({
  _tag: "Unverified",
  problems
})
const inconclusive = (problems: ReadonlyArray<Problem>): VerificationVerdict => ({
  _tag: "Inconclusive",
  problems
})
const verified: VerificationVerdict = { _tag: "Verified", problems: [] }

const cnameMismatch = new Problem({
  code: "cname_mismatch",
  message: `has a CNAME to elsewhere.example.net; it must point to ${cnameTarget} — "quoted", \\ and ✓`,
  found: ["CNAME elsewhere.example.net", "CNAME other.example.org."]
})
const dnsError = new Problem({
  code: "dns_error",
  message: "The CNAME lookup did not get an answer (timeout)."
})
const notFound = new Problem({ code: "record_not_found", message: "No record was found." })
const caaBlocks = new Problem({
  code: "caa_blocks_issuer",
  message: "CAA records at example.com allow only another CA.",
  found: ['0 issue "pki.goog"', '128 tbs "unknown"']
})
const noLongerVerifies = new Problem({ code: "domain_no_longer_verifies", message: "It no longer verifies." })
const emptyFound = new Problem({ code: "conflicting_record", message: "found nothing listed", found: [] })

/** The domain, due for a check at `at` (or never, with null). */
const dueAt = (domain: CustomDomain, at: Date | null): CustomDomain =>
  new CustomDomain({ ...domain, verification: new Verification({ ...domain.verification, nextCheckAt: at }) })

const withCertificate = (domain: CustomDomain, certificate: Certificate): CustomDomain =>
  new CustomDomain({ ...domain, certificate })

/** The domain, its certificate worked on next at `at` (or never, with null). */
const issuanceDueAt = (domain: CustomDomain, at: Date | null): CustomDomain =>
  new CustomDomain({
    ...domain,
    issuance: new Issuance({
      ...(domain.issuance ?? { requestedAt: domain.createdAt, order: null, attempts: 0 }),
      nextAttemptAt: at
    })
  })

const orderRef = (n: number) => OrderRef.make(`https://ca.example.test/acme/order/${n}?x="quoted"&y=✓`)

/** A fresh project, stored, with a fresh pending domain per entry of `kinds` (not stored). */
export const projectWith = (kinds: ReadonlyArray<"subdomain" | "apex">, account?: string) =>
  Effect.gen(function* () {
    const projects = yield* ProjectRepository
    const project = yield* freshProject(account === undefined ? {} : { account })
    yield* projects.insert(project, defaultLimits)
    const domains = yield* Effect.forEach(kinds, (kind, n) =>
      Effect.flatMap(freshHostname(kind), (hostname) => newDomainOf(project, hostname, later(t0, n * 7 + 1)))
    )
    return { project, domains }
  })

/** Domains in many states, built with the lifecycle's own functions. */
const domainsInEveryState = (project: Project) =>
  Effect.gen(function* () {
    const fresh = (kind: "subdomain" | "apex", createdAt: Date) =>
      Effect.flatMap(freshHostname(kind), (hostname) => newDomainOf(project, hostname, createdAt))
    const mismatched = applyVerdict(
      yield* fresh("subdomain", later(t0, 1)),
      unverified([cnameMismatch]),
      later(t0, 1_501)
    )
    const inconclusiveApex = applyVerdict(
      yield* fresh("apex", later(t0, 2)),
      inconclusive([dnsError]),
      later(t0, 999)
    )
    const timedOutDomain = applyVerdict(
      yield* fresh("subdomain", later(t0, 3)),
      unverified([notFound, emptyFound]),
      later(t0, 2 * day + 5)
    )
    const issued = withCertificate(
      applyVerdict(yield* fresh("apex", later(t0, 4)), verified, later(t0, 7_007)),
      new Certificate({
        status: "issued",
        issuedAt: later(t0, 9_009),
        expiresAt: later(t0, 90 * day + 1),
        problems: []
      })
    )
    const delayed = withCertificate(
      applyVerdict(yield* fresh("subdomain", later(t0, 5)), verified, later(t0, 11)),
      new Certificate({
        status: "delayed",
        issuedAt: null,
        expiresAt: null,
        problems: [caaBlocks, noLongerVerifies]
      })
    )
    const issuanceFailed = new Problem({ code: "issuance_failed", message: "The CA refused: rateLimited." })
    const verifiedInconclusive = applyVerdict(
      withCertificate(
        applyVerdict(yield* fresh("apex", later(t0, 6)), verified, later(t0, 12)),
        new Certificate({ status: "failed", issuedAt: null, expiresAt: null, problems: [issuanceFailed] })
      ),
      inconclusive([dnsError]),
      later(t0, 13)
    )
    // The certificate's work in its stages: an open order, polled again, issued, refused.
    const verifiedAt = later(t0, 20)
    const openOrder = (domain: CustomDomain, n: number) =>
      orderStarted(applyVerdict(domain, verified, verifiedAt), orderRef(n), later(verifiedAt, 3))
    const opened = openOrder(yield* fresh("subdomain", later(t0, 7)), 1)
    const polled = orderWaiting(
      orderWaiting(openOrder(yield* fresh("apex", later(t0, 10)), 4), [], later(verifiedAt, 2 * second + 5)),
      [caaBlocks],
      later(verifiedAt, 31 * minute)
    )
    const issuedNow = certificateIssued(
      orderStarted(
        applyVerdict(yield* fresh("apex", later(t0, 8)), verified, verifiedAt),
        orderRef(2),
        verifiedAt
      ),
      { issuedAt: later(verifiedAt, 9 * second), expiresAt: later(verifiedAt, 90 * day) }
    )
    const refused = orderRefused(
      orderStarted(
        applyVerdict(yield* fresh("subdomain", later(t0, 9)), verified, verifiedAt),
        orderRef(3),
        verifiedAt
      ),
      "Error creating new order :: too many certificates already issued",
      [caaBlocks],
      later(verifiedAt, 5 * second)
    )
    // Ownership: contested (its TXT record required), and lost to another account.
    const contested = withOwnershipRequired(
      applyVerdict(yield* fresh("subdomain", later(t0, 11)), unverified([notFound]), later(t0, 21)),
      true
    )
    const lost = withOwnershipRequired(
      loseOwnership(
        applyVerdict(yield* fresh("apex", later(t0, 12)), verified, later(t0, 22)),
        ownershipLostProblem("lost.example.com", "proved"),
        later(t0, 23)
      ),
      true
    )
    return [
      mismatched,
      inconclusiveApex,
      timedOutDomain,
      issued,
      delayed,
      verifiedInconclusive,
      opened,
      polled,
      issuedNow,
      refused,
      contested,
      lost
    ]
  })

const farFuture = new Date("2999-01-01T00:00:00.000Z")
const drainLease = { holder: "contract-drain", until: new Date("3000-01-01T00:00:00.000Z") }

/** Leases every domain due until the year 2999 away, so a claim test sees only its own domains. */
export const drainDue = Effect.gen(function* () {
  const domains = yield* CustomDomainRepository
  while ((yield* domains.claimDue(farFuture, 1_000, drainLease)).length > 0) {
    // Claimed away; look again until nothing is due.
  }
})

const freshHolder = (name: string) => Effect.map(randomToken, (token) => `${name}-${token}`)

/** Every domain with `hostname`: the rivals of an account that holds nothing. */
const holdersOf = (hostname: Hostname) =>
  Effect.gen(function* () {
    const repository = yield* CustomDomainRepository
    return yield* repository.listRivals([{ account: yield* freshAccount, hostname }])
  })

/**
 * One result through `completeChecks`, claimed as stored now (what a lease that still holds keeps):
 * whether it was stored.
 */
const completeCheck = (domain: CustomDomain, holder: string) =>
  Effect.gen(function* () {
    const repository = yield* CustomDomainRepository
    const claimed = Option.getOrElse(
      yield* repository.findInProject(domain.projectId, domain.hostname),
      () => domain
    )
    const stored = yield* repository.completeChecks([{ claimed, result: domain }], holder)
    expect(stored.length).toBeLessThanOrEqual(1)
    return stored.some((key) => key.projectId === domain.projectId && key.hostname === domain.hostname)
  })

export const domainRepositoryTests = (
  it: Vitest.MethodsNonLive<DomainStore>,
  options: DomainRepositoryContractOptions = {}
): void => {
  it.effect("insert, then findInProject returns every field (subdomain and apex), in that project only", () =>
    Effect.gen(function* () {
      const repository = yield* CustomDomainRepository
      const { domains, project } = yield* projectWith(["subdomain", "apex"])
      const other = yield* projectWith([], project.account)
      yield* Effect.forEach(domains, (row) => repository.insert(row, roomyLimits))
      for (const domain of domains) {
        expect(Option.map(yield* findStored(domain), fields)).toEqual(Option.some(fields(domain)))
        expect(yield* repository.findInProject(other.project.id, domain.hostname)).toEqual(Option.none())
      }
      expect(domains.map((domain) => [domain.kind, domain.dnsRecord.type])).toEqual([
        ["subdomain", "CNAME"],
        ["apex", "ALIAS"]
      ])
      // The account and the ownership record are kept as they are.
      expect(domains.map((domain) => [domain.account, domain.ownership.required])).toEqual([
        [project.account, false],
        [project.account, false]
      ])
      expect(yield* repository.findInProject(project.id, yield* freshHostname())).toEqual(Option.none())
    })
  )

  it.effect("every field round-trips exactly, through insert and through update", () =>
    Effect.gen(function* () {
      const repository = yield* CustomDomainRepository
      const { project } = yield* projectWith([])
      const states = yield* domainsInEveryState(project)
      expect(states.map((domain) => domain.status)).toEqual([
        "pending",
        "pending",
        "failed",
        "verified",
        "verified",
        "verified",
        "verified",
        "verified",
        "verified",
        "verified",
        "pending",
        "failed"
      ])
      expect(states.map((domain) => domain.ownership.required)).toEqual([
        ...Arr.replicate(false, 10),
        true,
        true
      ])
      // Issuance in every shape: none yet, asked for, with an open order, polled, renewal scheduled, refused.
      expect(
        states.map((domain) =>
          domain.issuance === null
            ? null
            : [
                domain.issuance.order !== null,
                domain.issuance.nextAttemptAt !== null,
                domain.issuance.attempts
              ]
        )
      ).toEqual([
        null,
        null,
        null,
        [false, true, 0],
        [false, true, 0],
        [false, true, 0],
        [true, true, 0],
        [true, true, 2],
        [false, true, 0],
        [false, false, 1],
        null,
        null
      ])
      for (const domain of states) {
        yield* repository.insert(domain, roomyLimits)
        expect(Option.map(yield* findStored(domain), fields)).toEqual(Option.some(fields(domain)))
        // Its event carries every public field as stored.
        expect(yield* toldOf(project.id, domain.hostname)).toEqual([["domain.added", encodeResource(domain)]])
      }
      // The same states reached by update from a new domain: the ownership record is replaced too.
      for (const state of states) {
        const hostname = yield* freshHostname(state.kind)
        const added = yield* newDomainOf(project, hostname, later(t0, 17), !state.ownership.required)
        yield* repository.insert(added, roomyLimits)
        const updated = new CustomDomain({
          ...state,
          hostname,
          dnsRecord: added.dnsRecord,
          ownership: withOwnershipRequired(added, state.ownership.required).ownership
        })
        expect(yield* repository.update(updated)).toBe(true)
        expect(Option.map(yield* findStored(updated), fields)).toEqual(Option.some(fields(updated)))
        const changed = domainEventTypes(added, updated)
        expect(changed.length).toBeGreaterThan(0)
        expect(yield* toldOf(project.id, hostname)).toEqual([
          ["domain.added", encodeResource(added)],
          ...changed.map((type) => [type, encodeResource(updated)] as const)
        ])
      }
    })
  )

  it.effect("listByProject: the project's domains in the order they were added", () =>
    Effect.gen(function* () {
      const repository = yield* CustomDomainRepository
      const { domains, project } = yield* projectWith(["subdomain", "apex", "subdomain", "subdomain", "apex"])
      const other = yield* projectWith(["subdomain", "subdomain"], project.account)
      const [a, b, c, d, e] = domains
      const [x, y] = other.domains
      for (const domain of [a, x, b, c, y, d, e])
        if (domain !== undefined) yield* repository.insert(domain, roomyLimits)
      expect(hostnamesOf(yield* repository.listByProject(project.id))).toEqual(hostnamesOf(domains))
      expect((yield* repository.listByProject(project.id)).map(fields)).toEqual(domains.map(fields))
      expect(hostnamesOf(yield* repository.listByProject(other.project.id))).toEqual(
        hostnamesOf(other.domains)
      )

      // An update keeps the place; removing one closes the gap.
      if (a !== undefined && c !== undefined) {
        yield* repository.update(applyVerdict(a, verified, later(t0, 5 * minute)))
        yield* repository.remove(project.id, c.hostname)
      }
      expect(hostnamesOf(yield* repository.listByProject(project.id))).toEqual(
        hostnamesOf(domains.filter((domain) => domain !== c))
      )
      expect(yield* repository.listByProject(ProjectId.make(`unknown-${yield* randomToken}`))).toEqual([])
    })
  )

  it.effect("update replaces the stored domain; false once it is gone", () =>
    Effect.gen(function* () {
      const repository = yield* CustomDomainRepository
      const { domains, project } = yield* projectWith(["subdomain"])
      const [domain] = domains
      if (domain === undefined) return
      yield* repository.insert(domain, roomyLimits)
      const checked = applyVerdict(domain, unverified([cnameMismatch]), later(t0, 45 * second))
      expect(yield* repository.update(checked)).toBe(true)
      expect(Option.map(yield* findStored(domain), fields)).toEqual(Option.some(fields(checked)))
      // The same hostname in another project of the account is another domain: it is not there.
      const other = yield* projectWith([], project.account)
      expect(yield* repository.update(new CustomDomain({ ...checked, projectId: other.project.id }))).toBe(
        false
      )
      expect(yield* repository.findInProject(other.project.id, domain.hostname)).toEqual(Option.none())
      expect(Option.map(yield* findStored(domain), fields)).toEqual(Option.some(fields(checked)))

      expect(Option.isSome(yield* repository.remove(project.id, domain.hostname))).toBe(true)
      expect(yield* repository.update(checked)).toBe(false)
      expect(yield* findStored(domain)).toEqual(Option.none())
      const never = yield* newDomainOf(project, yield* freshHostname())
      expect(yield* repository.update(never)).toBe(false)
      expect(yield* findStored(never)).toEqual(Option.none())
    })
  )

  it.effect(
    "limits: 60 concurrent additions to a project at a limit of 50 store exactly 50, the rest refused naming it",
    () =>
      Effect.gen(function* () {
        const repository = yield* CustomDomainRepository
        const { project } = yield* projectWith([])
        const candidates = yield* Effect.forEach(Arr.range(1, 60), (n) =>
          Effect.flatMap(freshHostname(), (hostname) => newDomainOf(project, hostname, later(t0, n)))
        )
        const refusals = (yield* insertAllAtOnce(candidates, (domain) =>
          repository.insert(domain, { domainsPerProject: 50 })
        )).refused
        expect(refusals).toHaveLength(10)
        for (const refusal of refusals) {
          expect(refusal).toMatchObject({ _tag: "LimitReached", limit: "domains per project", value: 50 })
        }
        const stored = yield* repository.listByProject(project.id)
        expect(stored).toHaveLength(50)
        // Nothing refused was half added: a refused hostname is in no project.
        const refused = candidates.filter(
          (candidate) => !stored.some((domain) => domain.hostname === candidate.hostname)
        )
        expect(refused).toHaveLength(10)
        for (const domain of refused) expect(yield* findStored(domain)).toEqual(Option.none())
        // Another project of the account has a limit of its own; a removal makes room again.
        const other = yield* projectWith(["subdomain"], project.account)
        const [elsewhere] = other.domains
        if (elsewhere !== undefined) yield* repository.insert(elsewhere, { domainsPerProject: 50 })
        const [first] = stored
        const [retried] = refused
        if (first !== undefined && retried !== undefined) {
          expect(Option.isSome(yield* repository.remove(project.id, first.hostname))).toBe(true)
          yield* repository.insert(retried, { domainsPerProject: 50 })
          expect(Option.isSome(yield* findStored(retried))).toBe(true)
        }
      })
  )

  it.effect("remove: false when absent or in another project; the hostname is free again", () =>
    Effect.gen(function* () {
      const repository = yield* CustomDomainRepository
      const { domains, project } = yield* projectWith(["subdomain", "apex"])
      const other = yield* projectWith([])
      const [domain, kept] = domains
      if (domain === undefined || kept === undefined) return
      yield* Effect.forEach(domains, (row) => repository.insert(row, roomyLimits))

      expect(Option.isSome(yield* repository.remove(other.project.id, domain.hostname))).toBe(false)
      expect(Option.isSome(yield* findStored(domain))).toBe(true)
      expect(Option.isSome(yield* repository.remove(project.id, yield* freshHostname()))).toBe(false)

      expect(Option.isSome(yield* repository.remove(project.id, domain.hostname))).toBe(true)
      expect(yield* findStored(domain)).toEqual(Option.none())
      expect(yield* holdersOf(domain.hostname)).toEqual([])
      expect(Option.isSome(yield* repository.remove(project.id, domain.hostname))).toBe(false)
      expect(hostnamesOf(yield* repository.listByProject(project.id))).toEqual([kept.hostname])

      // Free again for the account too: another of its projects may have it now.
      const sameAccount = yield* projectWith([], project.account)
      const readded = yield* newDomainOf(sameAccount.project, domain.hostname, later(t0, hour))
      yield* repository.insert(readded, roomyLimits)
      expect(Option.map(yield* findStored(readded), fields)).toEqual(Option.some(fields(readded)))
      expect((yield* holdersOf(domain.hostname)).map(fields)).toEqual([fields(readded)])

      // The removal is told once, with the domain as it was; the refused ones not at all.
      expect(yield* toldOf(project.id, domain.hostname)).toEqual([
        ["domain.added", encodeResource(domain)],
        ["domain.removed", encodeResource(domain)]
      ])
      expect(yield* toldOf(project.id, kept.hostname)).toEqual([["domain.added", encodeResource(kept)]])
      expect(yield* eventsOf(other.project.id)).toEqual([])
      expect(yield* toldOf(sameAccount.project.id, domain.hostname)).toEqual([
        ["domain.added", encodeResource(readded)]
      ])
    })
  )

  it.effect(
    "a hostname is in one project per account: HostnameTaken in the same or another project of it",
    () =>
      Effect.gen(function* () {
        const repository = yield* CustomDomainRepository
        const { domains, project } = yield* projectWith(["apex"])
        const sameAccount = yield* projectWith([], project.account)
        const [domain] = domains
        if (domain === undefined) return
        yield* repository.insert(domain, roomyLimits)

        const again = yield* Effect.flip(repository.insert(domain, roomyLimits))
        expect(again._tag).toBe("HostnameTaken")
        const elsewhere = yield* newDomainOf(sameAccount.project, domain.hostname, later(t0, minute))
        const taken = yield* Effect.flip(repository.insert(elsewhere, roomyLimits))
        expect(taken._tag).toBe("HostnameTaken")
        if (taken._tag === "HostnameTaken") expect(taken.hostname).toBe(domain.hostname)

        expect(Option.map(yield* findStored(domain), fields)).toEqual(Option.some(fields(domain)))
        expect(yield* repository.listByProject(sameAccount.project.id)).toEqual([])
        expect(keysOf(yield* holdersOf(domain.hostname))).toEqual([keyOf(domain)])
        // Refused, so untold.
        expect(yield* toldOf(project.id, domain.hostname)).toEqual([["domain.added", encodeResource(domain)]])
        expect(yield* eventsOf(sameAccount.project.id)).toEqual([])
      })
  )

  it.effect("several accounts may hold one hostname: each its own domain, listed oldest first", () =>
    Effect.gen(function* () {
      const repository = yield* CustomDomainRepository
      const hostname = yield* freshHostname()
      const [one, two, three] = yield* Effect.forEach(Arr.range(1, 3), () => projectWith([]))
      if (one === undefined || two === undefined || three === undefined) return
      const a = yield* newDomainOf(one.project, hostname, later(t0, 1))
      const b = applyVerdict(yield* newDomainOf(two.project, hostname, later(t0, 2), true), verified, t0)
      const c = yield* newDomainOf(three.project, hostname, later(t0, 3), true)
      for (const domain of [a, b, c]) yield* repository.insert(domain, roomyLimits)
      expect(new Set([a, b, c].map((domain) => domain.account)).size).toBe(3)

      for (const domain of [a, b, c]) {
        expect(Option.map(yield* findStored(domain), fields)).toEqual(Option.some(fields(domain)))
      }
      expect((yield* holdersOf(hostname)).map(fields)).toEqual([a, b, c].map(fields))
      // Each project lists only its own.
      expect((yield* repository.listByProject(two.project.id)).map(fields)).toEqual([fields(b)])

      // Updating or removing one leaves the others as they were.
      const failed = loseOwnership(b, ownershipLostProblem(hostname, "proved"), later(t0, minute))
      expect(yield* repository.update(failed)).toBe(true)
      expect(Option.isSome(yield* repository.remove(one.project.id, hostname))).toBe(true)
      expect((yield* holdersOf(hostname)).map(fields)).toEqual([failed, c].map(fields))
      expect(yield* holdersOf(yield* freshHostname())).toEqual([])
    })
  )

  it.effect(
    "listRivals: each hold's rivals (its hostname's domains of other accounts), oldest first, once",
    () =>
      Effect.gen(function* () {
        const repository = yield* CustomDomainRepository
        const [first, second, unasked] = [
          yield* freshHostname(),
          yield* freshHostname(),
          yield* freshHostname()
        ]
        const [one, two, three] = [yield* projectWith([]), yield* projectWith([]), yield* projectWith([])]
        const a = yield* newDomainOf(one.project, second, later(t0, 1))
        const b = yield* newDomainOf(one.project, first, later(t0, 2))
        const c = yield* newDomainOf(two.project, second, later(t0, 3), true)
        const d = yield* newDomainOf(two.project, unasked, later(t0, 4))
        const e = yield* newDomainOf(three.project, second, later(t0, 5), true)
        for (const domain of [a, b, c, d, e]) yield* repository.insert(domain, roomyLimits)
        const hold = (domain: CustomDomain) => ({ account: domain.account, hostname: domain.hostname })

        // A hold's own account is never its rival; another account's domain is.
        expect(yield* repository.listRivals([hold(b)])).toEqual([])
        expect((yield* repository.listRivals([hold(a)])).map(fields)).toEqual([c, e].map(fields))
        // Several holds at once: every rival of any, oldest first, each once (e rivals both a and c).
        expect((yield* repository.listRivals([hold(a), hold(c), hold(b)])).map(fields)).toEqual(
          [a, c, e].map(fields)
        )
        // An account adding a hostname it does not hold yet: every holder is its rival.
        expect(
          (yield* repository.listRivals([{ account: one.project.account, hostname: unasked }])).map(fields)
        ).toEqual([fields(d)])
        expect(
          yield* repository.listRivals([{ account: one.project.account, hostname: yield* freshHostname() }])
        ).toEqual([])
        expect(yield* repository.listRivals([])).toEqual([])
      })
  )

  it.effect("findVerified: the verified domain of a hostname, whichever account holds it", () =>
    Effect.gen(function* () {
      const repository = yield* CustomDomainRepository
      const hostname = yield* freshHostname()
      expect(yield* repository.findVerified(hostname)).toEqual(Option.none())
      const [one, two, three] = yield* Effect.forEach(Arr.range(1, 3), () => projectWith([]))
      if (one === undefined || two === undefined || three === undefined) return
      const pending = yield* newDomainOf(one.project, hostname, later(t0, 1))
      const failed = applyVerdict(
        yield* newDomainOf(two.project, hostname, later(t0, 2)),
        unverified([notFound]),
        later(t0, 3 * day)
      )
      expect(failed.status).toBe("failed")
      yield* Effect.forEach([pending, failed], (row) => repository.insert(row, roomyLimits))
      expect(yield* repository.findVerified(hostname)).toEqual(Option.none())

      const owner = applyVerdict(
        yield* newDomainOf(three.project, hostname, later(t0, 3)),
        verified,
        later(t0, hour)
      )
      yield* repository.insert(owner, roomyLimits)
      expect(Option.map(yield* repository.findVerified(hostname), fields)).toEqual(Option.some(fields(owner)))
      // Another hostname's verified domain is not this one's.
      expect(yield* repository.findVerified(yield* freshHostname())).toEqual(Option.none())

      // Storage keeps one verified domain a hostname, whatever the account: a second is refused
      // (a lost race, not an error), and changes nothing.
      const verifiedTwice = applyVerdict(pending, verified, later(t0, 2 * hour))
      expect(yield* repository.update(verifiedTwice)).toBe(false)
      expect(Option.map(yield* repository.findVerified(hostname), fields)).toEqual(Option.some(fields(owner)))
      expect(Option.map(yield* findStored(pending), fields)).toEqual(Option.some(fields(pending)))
      // Once the owner is no longer verified, another may be: both writes at once, the loser first.
      const lost = loseOwnership(owner, ownershipLostProblem(hostname, "proved"), later(t0, 3 * hour))
      expect(
        yield* (yield* DecidedWritesStore).storeDecided({ domains: [verifiedTwice, lost], claims: [] })
      ).toBe(true)
      expect(Option.map(yield* repository.findVerified(hostname), fields)).toEqual(
        Option.some(fields(verifiedTwice))
      )

      // Once it is removed, no other is verified.
      expect(Option.isSome(yield* repository.remove(one.project.id, hostname))).toBe(true)
      expect(Option.isSome(yield* repository.remove(three.project.id, hostname))).toBe(true)
      expect(yield* repository.findVerified(hostname)).toEqual(Option.none())
    })
  )

  it.effect("listAtOrUnder: the apex and the names under it, of every account, and no look-alike", () =>
    Effect.gen(function* () {
      const repository = yield* CustomDomainRepository
      const token = yield* randomToken
      const apex = Hostname.make(`example${token}.com`)
      const named = (project: Project, name: string, n: number) =>
        newDomainOf(project, Hostname.make(name), later(t0, n))
      const { project: mine } = yield* projectWith([])
      const { project: theirs } = yield* projectWith([])
      const atApex = yield* named(mine, apex, 1)
      const docs = yield* named(mine, `docs.${apex}`, 2)
      const theirDocs = yield* named(theirs, `docs.${apex}`, 3)
      const deep = yield* named(theirs, `a.b.${apex}`, 4)
      const lookAlikes = [
        // Ends with the apex's text, but not at a label boundary.
        yield* named(mine, `notexample${token}.com`, 5),
        yield* named(theirs, `docs.notexample${token}.com`, 6),
        // Holds the apex, but is not under it.
        yield* named(mine, `${apex}.evil.net`, 7),
        yield* named(theirs, `docs.example${token}.co`, 8),
        // What a pattern's wildcards (`_`, `.` in a regular expression) would take for the apex.
        yield* named(mine, `docsxexample${token}.com`, 9),
        yield* named(theirs, `docs.example${token}xcom`, 10)
      ]
      const under = [atApex, docs, theirDocs, deep]
      // Inserted mixed, so that the order of insertion says nothing.
      for (const domain of [...lookAlikes.slice(0, 3), deep, theirDocs, ...lookAlikes.slice(3), docs, atApex])
        yield* repository.insert(domain, roomyLimits)

      const found = yield* repository.listAtOrUnder(apex)
      expect(keysOf(found).sort(byKey)).toEqual(keysOf(under).sort(byKey))
      expect(found.map(fields).sort(byKey)).toEqual(under.map(fields).sort(byKey))
      // Under a name below the apex: only that name and its own children.
      expect(keysOf(yield* repository.listAtOrUnder(Hostname.make(`b.${apex}`)))).toEqual([keyOf(deep)])
      expect(yield* repository.listAtOrUnder(Hostname.make(`x.${apex}`))).toEqual([])
    })
  )

  it.effect("20 concurrent inserts of one hostname from projects of one account: exactly one succeeds", () =>
    Effect.gen(function* () {
      const repository = yield* CustomDomainRepository
      const hostname = yield* freshHostname()
      const first = yield* projectWith([])
      const projects = [
        first,
        ...(yield* Effect.forEach(Arr.range(2, 20), () => projectWith([], first.project.account)))
      ]
      const domains = yield* Effect.forEach(projects, ({ project }) => newDomainOf(project, hostname))
      const exits = yield* Effect.forEach(
        domains,
        (domain) => Effect.exit(repository.insert(domain, roomyLimits)),
        {
          concurrency: "unbounded"
        }
      )
      const winners = projects.filter((_, n) => exits[n] !== undefined && Exit.isSuccess(exits[n]))
      expect(winners).toHaveLength(1)
      const losers = exits.flatMap((exit) => (Exit.isFailure(exit) ? [exit.cause] : []))
      expect(losers).toHaveLength(19)
      for (const cause of losers)
        expect(cause.reasons.map((reason) => reason._tag === "Fail" && reason.error._tag)).toEqual([
          "HostnameTaken"
        ])
      const stored = yield* holdersOf(hostname)
      expect(stored.map((domain) => domain.projectId)).toEqual([winners[0]?.project.id])
    })
  )

  it.effect("20 concurrent inserts of one hostname from 20 accounts: every one succeeds", () =>
    Effect.gen(function* () {
      const repository = yield* CustomDomainRepository
      const hostname = yield* freshHostname()
      const projects = yield* Effect.forEach(Arr.range(1, 20), () => projectWith([]))
      const domains = yield* Effect.forEach(projects, ({ project }) => newDomainOf(project, hostname))
      yield* Effect.forEach(domains, (row) => repository.insert(row, roomyLimits), {
        concurrency: "unbounded",
        discard: true
      })
      const stored = yield* holdersOf(hostname)
      expect([...keysOf(stored)].sort(byKey)).toEqual([...keysOf(domains)].sort(byKey))
    })
  )

  it.effect("claimDue: due domains without a live lease, oldest due first, at most limit", () =>
    Effect.gen(function* () {
      const repository = yield* CustomDomainRepository
      yield* drainDue
      const { domains } = yield* projectWith(["subdomain", "apex", "subdomain", "subdomain", "apex"])
      const [d1, d3, d2, notYet, never] = domains
      if (
        d1 === undefined ||
        d2 === undefined ||
        d3 === undefined ||
        notYet === undefined ||
        never === undefined
      )
        return
      const stored = [
        dueAt(d3, later(t0, 3 * second)),
        dueAt(d1, later(t0, 1 * second)),
        dueAt(notYet, later(t0, 10 * second + 1)),
        dueAt(d2, later(t0, 2 * second)),
        issuanceDueAt(applyVerdict(never, verified, t0), null)
      ]
      const now = later(t0, 10 * second)
      // Other tests' domains share the store: the queue depth is compared before and after.
      const depthBefore = yield* repository.countDue(now)
      yield* Effect.forEach(stored, (row) => repository.insert(row, roomyLimits))
      expect((yield* repository.countDue(now)) - depthBefore).toBe(3)
      expect((yield* repository.countDue(later(now, 1))) - (yield* repository.countDue(now))).toBe(1)
      const byHostname = new Map(stored.map((domain) => [domain.hostname as string, domain]))
      const [a, b, c] = [yield* freshHolder("a"), yield* freshHolder("b"), yield* freshHolder("c")]

      const first = yield* repository.claimDue(now, 2, { holder: a, until: later(now, minute) })
      expect(hostnamesOf(first)).toEqual([d1.hostname, d2.hostname])
      // Claimed domains come back whole, as stored.
      expect(first.map(fields)).toEqual(
        first.map((domain) => fields(byHostname.get(domain.hostname) ?? domain))
      )

      // Leased work is still work due: the depth counts it until it is done.
      expect((yield* repository.countDue(now)) - depthBefore).toBe(3)
      const rest = yield* repository.claimDue(now, 10, { holder: b, until: later(now, hour) })
      expect(hostnamesOf(rest)).toEqual([d3.hostname])
      expect(rest.map(fields)).toEqual([fields(dueAt(d3, later(t0, 3 * second)))])
      // The holder of a live lease does not get it twice either.
      expect(yield* repository.claimDue(now, 10, { holder: a, until: later(now, minute) })).toEqual([])
      expect(yield* repository.claimDue(now, 10, { holder: c, until: later(now, minute) })).toEqual([])

      // A's leases end at now + 1 minute (exactly then they are free); B's last an hour.
      const afterA = later(now, minute)
      const taken = yield* repository.claimDue(afterA, 10, { holder: c, until: later(afterA, minute) })
      expect(hostnamesOf(taken)).toEqual([d1.hostname, d2.hostname, notYet.hostname])
      expect(yield* repository.claimDue(later(now, minute - 1), 10, { holder: a, until: farFuture })).toEqual(
        []
      )
    })
  )

  it.effect("domains with nothing due (no next check, no next issuance attempt) are never claimed", () =>
    Effect.gen(function* () {
      const repository = yield* CustomDomainRepository
      yield* drainDue
      const { domains } = yield* projectWith(["subdomain", "apex", "subdomain", "apex"])
      const [verifiedOne, failedOne, pausedOne, refusedOne] = domains
      if (
        verifiedOne === undefined ||
        failedOne === undefined ||
        pausedOne === undefined ||
        refusedOne === undefined
      )
        return
      const stored = [
        issuanceDueAt(applyVerdict(verifiedOne, verified, later(t0, second)), null),
        applyVerdict(failedOne, unverified([notFound]), later(t0, 3 * day)),
        dueAt(pausedOne, null),
        orderRefused(applyVerdict(refusedOne, verified, t0), "refused", [], later(t0, minute))
      ]
      expect(stored.map((domain) => domain.verification.nextCheckAt)).toEqual([null, null, null, null])
      expect(stored.map(workDueAt)).toEqual([null, null, null, null])
      yield* Effect.forEach(stored, (row) => repository.insert(row, roomyLimits))
      expect(
        yield* repository.claimDue(farFuture, 100, { holder: yield* freshHolder("n"), until: farFuture })
      ).toEqual([])
    })
  )

  it.effect(
    "claimDue: a domain is due at its next check or its next issuance attempt, whichever is first",
    () =>
      Effect.gen(function* () {
        const repository = yield* CustomDomainRepository
        yield* drainDue
        const { domains } = yield* projectWith([
          "subdomain",
          "apex",
          "subdomain",
          "apex",
          "subdomain",
          "apex"
        ])
        const [checkDue, issuanceDue, checkFirst, issuanceFirst, notYet, idle] = domains
        if (
          checkDue === undefined ||
          issuanceDue === undefined ||
          checkFirst === undefined ||
          issuanceFirst === undefined ||
          notYet === undefined ||
          idle === undefined
        )
          return
        const now = later(t0, 10 * second)
        const verifiedAt = (domain: CustomDomain) => applyVerdict(domain, verified, t0)
        const stored = [
          // Pending: only its check is due, at 3 s.
          dueAt(checkDue, later(t0, 3 * second)),
          // Verified: only its certificate work is due, at 1 s.
          issuanceDueAt(verifiedAt(issuanceDue), later(t0, second)),
          // Re-verified: its check at 2 s comes before the certificate work at 5 s.
          issuanceDueAt(
            restartVerificationWindow(verifiedAt(checkFirst), later(t0, 2 * second)),
            later(t0, 5 * second)
          ),
          // Re-verified: its certificate work at 4 s comes before the check at 9 min.
          issuanceDueAt(
            restartVerificationWindow(verifiedAt(issuanceFirst), later(t0, 9 * minute)),
            later(t0, 4 * second)
          ),
          // Verified, its certificate worked on only after now.
          issuanceDueAt(verifiedAt(notYet), later(now, 1)),
          issuanceDueAt(verifiedAt(idle), null)
        ]
        expect(stored.map((domain) => workDueAt(domain)?.getTime() ?? null)).toEqual([
          later(t0, 3 * second).getTime(),
          later(t0, second).getTime(),
          later(t0, 2 * second).getTime(),
          later(t0, 4 * second).getTime(),
          later(now, 1).getTime(),
          null
        ])
        yield* Effect.forEach(stored, (row) => repository.insert(row, roomyLimits))
        const byHostname = new Map(stored.map((domain) => [domain.hostname as string, domain]))
        const [a, b, c] = [yield* freshHolder("a"), yield* freshHolder("b"), yield* freshHolder("c")]

        const first = yield* repository.claimDue(now, 2, { holder: a, until: later(now, minute) })
        expect(hostnamesOf(first)).toEqual([issuanceDue.hostname, checkFirst.hostname])
        // Claimed domains come back whole, their issuance included.
        expect(first.map(fields)).toEqual(
          first.map((domain) => fields(byHostname.get(domain.hostname) ?? domain))
        )
        const rest = yield* repository.claimDue(now, 10, { holder: b, until: later(now, minute) })
        expect(hostnamesOf(rest)).toEqual([checkDue.hostname, issuanceFirst.hostname])
        expect(rest.map(fields)).toEqual(
          rest.map((domain) => fields(byHostname.get(domain.hostname) ?? domain))
        )
        expect(yield* repository.claimDue(now, 10, { holder: c, until: later(now, minute) })).toEqual([])

        const justAfter = later(now, 1)
        const late = yield* repository.claimDue(justAfter, 10, { holder: c, until: later(justAfter, minute) })
        expect(late.map(fields)).toEqual([fields(stored[4] ?? notYet)])
        // Once every lease has run out, all but the idle one are due again, in the same order.
        expect(
          hostnamesOf(yield* repository.claimDue(farFuture, 10, { holder: c, until: farFuture }))
        ).toEqual([
          issuanceDue.hostname,
          checkFirst.hostname,
          checkDue.hostname,
          issuanceFirst.hostname,
          notYet.hostname
        ])
      })
  )

  it.effect(
    "issuance round-trips through claim, completeChecks and update; claims follow its next attempt",
    () =>
      Effect.gen(function* () {
        const repository = yield* CustomDomainRepository
        yield* drainDue
        const { domains } = yield* projectWith(["apex"])
        const [added] = domains
        if (added === undefined) return
        const verifiedDomain = applyVerdict(added, verified, later(t0, second))
        expect(verifiedDomain.issuance?.nextAttemptAt).toEqual(later(t0, second))
        yield* repository.insert(verifiedDomain, roomyLimits)
        const holder = yield* freshHolder("issuer")

        const [claimed] = yield* repository.claimDue(later(t0, 2 * second), 10, {
          holder,
          until: later(t0, minute)
        })
        expect(claimed === undefined ? undefined : fields(claimed)).toEqual(fields(verifiedDomain))

        // The order is opened: polled again 2 s later, not before.
        const opened = orderStarted(verifiedDomain, orderRef(7), later(t0, 3 * second))
        const pollAt = opened.issuance?.nextAttemptAt ?? farFuture
        expect(yield* completeCheck(opened, holder)).toBe(true)
        expect(Option.map(yield* findStored(added), fields)).toEqual(Option.some(fields(opened)))
        expect(
          yield* repository.claimDue(later(pollAt, -1), 10, { holder, until: later(pollAt, minute) })
        ).toEqual([])
        const polled = yield* repository.claimDue(pollAt, 10, { holder, until: later(pollAt, minute) })
        expect(polled.map(fields)).toEqual([fields(opened)])

        // Issued: nothing due until the renewal, 30 days before expiry.
        const issuedDomain = certificateIssued(opened, {
          issuedAt: later(pollAt, second),
          expiresAt: later(pollAt, 90 * day)
        })
        const renewalAt = issuedDomain.issuance?.nextAttemptAt ?? farFuture
        expect(renewalAt).toEqual(later(pollAt, 60 * day))
        expect(yield* completeCheck(issuedDomain, holder)).toBe(true)
        expect(
          yield* repository.claimDue(later(renewalAt, -1), 10, { holder, until: later(renewalAt, minute) })
        ).toEqual([])
        const renewal = yield* repository.claimDue(renewalAt, 10, { holder, until: later(renewalAt, minute) })
        expect(renewal.map(fields)).toEqual([fields(issuedDomain)])

        // An update (Re-verify clicked) replaces the issuance too; one without a next attempt is never due.
        const refused = orderRefused(issuedDomain, "refused", [], later(renewalAt, second))
        const idle = yield* decidedFromStored(issuanceDueAt(refused, null))
        expect(yield* repository.update(idle)).toBe(true)
        expect(Option.map(yield* findStored(added), fields)).toEqual(Option.some(fields(idle)))
        expect(yield* repository.claimDue(farFuture, 10, { holder, until: farFuture })).toEqual([])
        const cleared = yield* decidedFromStored(new CustomDomain({ ...idle, issuance: null }))
        expect(yield* repository.update(cleared)).toBe(true)
        expect(Option.map(yield* findStored(added), fields)).toEqual(Option.some(fields(cleared)))
      })
  )

  it.effect("releaseLease: only the holder's release counts, and the domain is claimable at once", () =>
    Effect.gen(function* () {
      const repository = yield* CustomDomainRepository
      yield* drainDue
      const { domains } = yield* projectWith(["subdomain"])
      const [domain] = domains
      if (domain === undefined) return
      yield* repository.insert(domain, roomyLimits)
      const now = later(t0, minute)
      const [a, b, c] = [yield* freshHolder("a"), yield* freshHolder("b"), yield* freshHolder("c")]
      expect(
        hostnamesOf(yield* repository.claimDue(now, 10, { holder: a, until: later(now, hour) }))
      ).toEqual([domain.hostname])

      yield* repository.releaseLease(domain, b)
      expect(yield* repository.claimDue(now, 10, { holder: c, until: later(now, hour) })).toEqual([])
      // The same hostname in another project (of the account, or of another one) is another lease.
      const sameAccount = yield* projectWith([], domain.account)
      const otherAccount = yield* projectWith([])
      yield* repository.releaseLease({ projectId: sameAccount.project.id, hostname: domain.hostname }, a)
      yield* repository.releaseLease({ projectId: otherAccount.project.id, hostname: domain.hostname }, a)
      expect(yield* repository.claimDue(now, 10, { holder: c, until: later(now, hour) })).toEqual([])

      yield* repository.releaseLease(domain, a)
      expect(
        hostnamesOf(yield* repository.claimDue(now, 10, { holder: c, until: later(now, hour) }))
      ).toEqual([domain.hostname])
      // A's second release comes too late: C holds it now.
      yield* repository.releaseLease(domain, a)
      expect(yield* repository.claimDue(now, 10, { holder: b, until: later(now, hour) })).toEqual([])
      // Releasing an unknown domain is harmless; the stored domain is untouched by leases.
      yield* repository.releaseLease({ projectId: domain.projectId, hostname: yield* freshHostname() }, c)
      expect(yield* repository.claimDue(now, 10, { holder: b, until: later(now, hour) })).toEqual([])
      expect(Option.map(yield* findStored(domain), fields)).toEqual(Option.some(fields(domain)))
    })
  )

  it.effect("an update (a user's Verify) ends a running check's lease: its stale result is not stored", () =>
    Effect.gen(function* () {
      const repository = yield* CustomDomainRepository
      yield* drainDue
      const { domains } = yield* projectWith(["subdomain"])
      const domain = dueAt(domains[0] ?? (yield* Effect.die(new Error("no domain"))), t0)
      yield* repository.insert(domain, roomyLimits)
      const [claimed] = yield* repository.claimDue(later(t0, 1), 10, {
        holder: "worker-a",
        until: later(t0, hour)
      })
      expect(claimed?.hostname).toBe(domain.hostname)
      const clicked = restartVerificationWindow(domain, later(t0, 2 * minute))
      expect(yield* repository.update(clicked)).toBe(true)
      const stale = applyVerdict(domain, unverified([notFound]), later(t0, 3 * minute))
      expect(yield* completeCheck(stale, "worker-a")).toBe(false)
      const stored = yield* findStored(domain)
      expect(Option.map(stored, (found) => found.verification.deadline.getTime())).toEqual(
        Option.some(clicked.verification.deadline.getTime())
      )
      // Verify changed nothing the owner is told of, and the stale result is not told either.
      expect(yield* toldOf(domain.projectId, domain.hostname)).toEqual([
        ["domain.added", encodeResource(domain)]
      ])
    })
  )

  it.effect("completing a check stores the result and ends the lease while the holder holds it", () =>
    Effect.gen(function* () {
      const repository = yield* CustomDomainRepository
      yield* drainDue
      const { domains } = yield* projectWith(["subdomain", "apex"])
      const [domain, slow] = domains
      if (domain === undefined || slow === undefined) return
      yield* Effect.forEach(domains, (row) => repository.insert(row, roomyLimits))
      const now = later(t0, second)
      const [a, b] = [yield* freshHolder("a"), yield* freshHolder("b")]
      const leaseEnd = later(now, 10 * minute)
      expect(hostnamesOf(yield* repository.claimDue(now, 10, { holder: a, until: leaseEnd }))).toEqual(
        hostnamesOf(domains)
      )

      const checked = applyVerdict(domain, unverified([cnameMismatch]), later(now, 2 * second))
      const nextCheck = checked.verification.nextCheckAt
      expect(nextCheck).not.toBeNull()
      expect(yield* completeCheck(checked, b)).toBe(false)
      expect(Option.map(yield* findStored(domain), fields)).toEqual(Option.some(fields(domain)))
      expect(yield* completeCheck(checked, a)).toBe(true)
      expect(Option.map(yield* findStored(domain), fields)).toEqual(Option.some(fields(checked)))
      // The lease ended: due again at its next check, well before A's lease would have run out.
      if (nextCheck === null) return
      expect(nextCheck.getTime()).toBeLessThan(leaseEnd.getTime())
      expect(yield* repository.claimDue(later(nextCheck, -1), 10, { holder: b, until: farFuture })).toEqual(
        []
      )
      const again = yield* repository.claimDue(nextCheck, 10, { holder: b, until: later(nextCheck, hour) })
      expect(again.map(fields)).toEqual([fields(checked)])
      // Completing twice does not work: the lease is B's now.
      expect(yield* completeCheck(checked, a)).toBe(false)

      // A lease that expired but that nobody took over still belongs to its holder.
      const slowChecked = applyVerdict(slow, verified, later(leaseEnd, minute))
      expect(yield* completeCheck(slowChecked, a)).toBe(true)
      expect(Option.map(yield* findStored(slow), fields)).toEqual(Option.some(fields(slowChecked)))
    })
  )

  it.effect(
    "completing a check is refused once another holder took over the expired lease, or after removal",
    () =>
      Effect.gen(function* () {
        const repository = yield* CustomDomainRepository
        yield* drainDue
        const { domains, project } = yield* projectWith(["subdomain", "subdomain"])
        const [domain, removed] = domains
        if (domain === undefined || removed === undefined) return
        yield* Effect.forEach(domains, (row) => repository.insert(row, roomyLimits))
        const [a, b] = [yield* freshHolder("a"), yield* freshHolder("b")]
        const now = later(t0, second)
        yield* repository.claimDue(now, 10, { holder: a, until: later(now, minute) })

        const takeover = later(now, minute + 1)
        const takenOver = yield* repository.claimDue(takeover, 10, {
          holder: b,
          until: later(takeover, hour)
        })
        expect(hostnamesOf(takenOver)).toEqual(hostnamesOf(domains))

        const byA = applyVerdict(domain, unverified([notFound]), later(takeover, 1))
        expect(yield* completeCheck(byA, a)).toBe(false)
        expect(Option.map(yield* findStored(domain), fields)).toEqual(Option.some(fields(domain)))
        const byB = applyVerdict(domain, verified, later(takeover, 2))
        expect(yield* completeCheck(byB, b)).toBe(true)
        expect(Option.map(yield* findStored(domain), fields)).toEqual(Option.some(fields(byB)))

        expect(Option.isSome(yield* repository.remove(project.id, removed.hostname))).toBe(true)
        expect(yield* completeCheck(applyVerdict(removed, verified, later(takeover, 3)), b)).toBe(false)
        expect(yield* findStored(removed)).toEqual(Option.none())
        // Re-added meanwhile, by the same project or another account: the old lease does not carry over.
        const readded = yield* newDomainOf(project, removed.hostname, takeover)
        const other = yield* projectWith([])
        const elsewhere = yield* newDomainOf(other.project, removed.hostname, takeover)
        yield* Effect.forEach([readded, elsewhere], (row) => repository.insert(row, roomyLimits))
        expect(yield* completeCheck(applyVerdict(removed, verified, later(takeover, 4)), b)).toBe(false)
        expect(Option.map(yield* findStored(readded), fields)).toEqual(Option.some(fields(readded)))
        expect(Option.map(yield* findStored(elsewhere), fields)).toEqual(Option.some(fields(elsewhere)))
      })
  )

  it.effect(
    "completeChecks stores a round's results at once, each only where the holder still holds it",
    () =>
      Effect.gen(function* () {
        const repository = yield* CustomDomainRepository
        yield* drainDue
        expect(yield* repository.completeChecks([], "nobody")).toEqual([])
        const { domains, project } = yield* projectWith(["subdomain", "apex", "subdomain"])
        const [pending, toVerify, removed] = domains
        if (pending === undefined || toVerify === undefined || removed === undefined) return
        yield* Effect.forEach([pending, toVerify, removed], (row) => repository.insert(row, roomyLimits))
        const [a, b] = [yield* freshHolder("a"), yield* freshHolder("b")]
        const now = later(t0, second)
        yield* repository.claimDue(now, 10, { holder: a, until: later(now, hour) })
        // Another project's domain, leased by another worker: never touched by A's results.
        const { domains: others } = yield* projectWith(["subdomain"])
        const foreign = others[0] ?? (yield* Effect.die(new Error("no domain")))
        yield* repository.insert(foreign, roomyLimits)
        yield* repository.claimDue(now, 10, { holder: b, until: later(now, hour) })
        expect(Option.isSome(yield* repository.remove(project.id, removed.hostname))).toBe(true)

        const checkedAt = later(now, 2 * second)
        const stillPending = applyVerdict(pending, unverified([cnameMismatch]), checkedAt)
        const nowVerified = applyVerdict(toVerify, verified, checkedAt)
        expect(nowVerified.issuance).not.toBeNull()
        expect(stillPending.issuance).toBeNull()
        const stored = yield* repository.completeChecks(
          [
            { claimed: pending, result: stillPending },
            { claimed: toVerify, result: nowVerified },
            { claimed: removed, result: applyVerdict(removed, verified, checkedAt) },
            { claimed: foreign, result: applyVerdict(foreign, verified, checkedAt) }
          ],
          a
        )
        expect([...stored].sort(byKey)).toEqual(keysOf([pending, toVerify]).sort(byKey))
        expect(Option.map(yield* findStored(pending), fields)).toEqual(Option.some(fields(stillPending)))
        expect(Option.map(yield* findStored(toVerify), fields)).toEqual(Option.some(fields(nowVerified)))
        expect(Option.map(yield* findStored(foreign), fields)).toEqual(Option.some(fields(foreign)))
        expect(yield* findStored(removed)).toEqual(Option.none())
        // The round's events, for the results stored only, in the order the round gave them.
        expect(
          (yield* eventsOf(project.id)).map((event) => [
            event.type,
            event.hostname,
            encodeResource(event.data)
          ])
        ).toEqual([
          ["domain.added", pending.hostname, encodeResource(pending)],
          ["domain.added", toVerify.hostname, encodeResource(toVerify)],
          ["domain.added", removed.hostname, encodeResource(removed)],
          ["domain.removed", removed.hostname, encodeResource(removed)],
          ["domain.problems_changed", pending.hostname, encodeResource(stillPending)],
          ["domain.verified", toVerify.hostname, encodeResource(nowVerified)]
        ])
        expect(yield* toldOf(foreign.projectId, foreign.hostname)).toEqual([
          ["domain.added", encodeResource(foreign)]
        ])
        // A's leases ended with its results; B's lease on the other domain holds.
        const foreignVerified = applyVerdict(foreign, verified, checkedAt)
        expect(yield* completeCheck(foreignVerified, b)).toBe(true)
        expect(yield* completeCheck(nowVerified, a)).toBe(false)
        expect(yield* toldOf(foreign.projectId, foreign.hostname)).toEqual([
          ["domain.added", encodeResource(foreign)],
          ["domain.verified", encodeResource(foreignVerified)]
        ])
        expect(yield* eventsOf(project.id)).toHaveLength(6)
      })
  )

  const concurrentDomains = options.concurrentClaimDomains ?? 500
  it.effect(`concurrent claims: ${concurrentDomains} due domains, 4 holders, each claimed exactly once`, () =>
    Effect.gen(function* () {
      const repository = yield* CustomDomainRepository
      yield* drainDue
      const { project } = yield* projectWith([])
      const hostnames = yield* Effect.forEach(Arr.range(1, concurrentDomains), (n) =>
        Effect.map(freshHostname(n % 5 === 0 ? "apex" : "subdomain"), (hostname) => ({ hostname, n }))
      )
      yield* Effect.forEach(
        hostnames,
        ({ hostname, n }) =>
          Effect.flatMap(newDomainOf(project, hostname), (domain) =>
            repository.insert(dueAt(domain, later(t0, (n * 7_919) % 100_000)), roomyLimits)
          ),
        { concurrency: 8 }
      )
      const now = later(t0, 200 * second)
      const lease = (holder: string) => ({ holder, until: later(now, hour) })
      const claimUntilNothingIsLeft = (holder: string) =>
        Effect.gen(function* () {
          const claimed: Array<Hostname> = []
          while (true) {
            const batch = yield* repository.claimDue(now, 25, lease(holder))
            if (batch.length === 0) return claimed
            expect(batch.length).toBeLessThanOrEqual(25)
            claimed.push(...hostnamesOf(batch))
          }
        })
      const holders = yield* Effect.forEach(Arr.range(1, 4), (n) => freshHolder(`w${n}`))
      const claims = yield* Effect.forEach(holders, claimUntilNothingIsLeft, { concurrency: "unbounded" })
      const everything = claims.flat()
      expect(everything).toHaveLength(concurrentDomains)
      expect(new Set(everything).size).toBe(concurrentDomains)
      expect([...everything].sort()).toEqual(hostnames.map(({ hostname }) => hostname).sort())
      expect(yield* repository.claimDue(now, 25, lease(yield* freshHolder("late")))).toEqual([])
    })
  )
}

/** Runs the suite against one fresh store built from `store`. */
export const domainRepositoryContract = <E>(
  name: string,
  store: Layer.Layer<DomainStore, E>,
  options: DomainRepositoryContractOptions & { readonly timeout?: number } = {}
): void =>
  layer(store, {
    excludeTestServices: true,
    ...(options.timeout === undefined ? {} : { timeout: options.timeout })
  })(name, (it) => describe("CustomDomainRepository", () => domainRepositoryTests(it, options)))
