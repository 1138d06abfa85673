/**
 * The behaviour every store must have for decided writes (contract section 4, "Races"): a write of a
 * domain or a claim is applied only while the row is at the version it was decided from, and bumps
 * it; a decision's writes (`storeDecided`) are all or nothing; at most one domain of a hostname is
 * verified, whatever the account; and racing writers decided from one state see exactly one of them
 * stored. Run against every adapter, within the whole-store contract (it needs domains and claims).
 */
import { expect, type Vitest } from "@effect/vitest"
import {
  applyVerdict,
  type CustomDomain,
  CustomDomainRepository,
  loseOwnership,
  restartVerificationWindow
} from "@petstore/domains"
import { defaultLimits } from "@petstore/kernel"
import {
  applyClaimCheck,
  type Claim,
  ClaimRepository,
  DecidedWritesStore,
  ownershipLostProblem
} from "@petstore/ownership"
import { ProjectRepository } from "@petstore/projects"
import { Array as Arr, Effect, Option } from "effect"
import {
  freshAccount,
  freshHostname,
  freshProject,
  later,
  newClaimOf,
  newDomainOf,
  randomToken,
  roomyLimits,
  t0
} from "./ContractFixtures.js"
import type { DomainStore } from "./DomainRepositoryContract.js"

const minute = 60_000
const verified = { _tag: "Verified", problems: [] } as const
const found = { _tag: "Found" } as const

/** A new domain of `hostname` for a fresh project of a fresh (or the given) account, stored. */
const storedDomainOf = (hostname: CustomDomain["hostname"], account?: string) =>
  Effect.gen(function* () {
    const project = yield* freshProject(account === undefined ? {} : { account })
    yield* Effect.flatMap(ProjectRepository, (projects) => projects.insert(project, defaultLimits))
    const domain = yield* newDomainOf(project, hostname, t0, true)
    yield* Effect.flatMap(CustomDomainRepository, (domains) => domains.insert(domain, roomyLimits))
    return domain
  })

const stored = (domain: CustomDomain) =>
  Effect.flatMap(CustomDomainRepository, (domains) =>
    domains.findInProject(domain.projectId, domain.hostname)
  )

const storedClaim = (claim: Claim) =>
  Effect.flatMap(ClaimRepository, (claims) => claims.findOwned(claim.account, claim.apex))

const versionOf = (found: Option.Option<{ readonly version: number }>) =>
  Option.getOrUndefined(Option.map(found, (row) => row.version))

export const decidedWritesTests = (it: Vitest.MethodsNonLive<DomainStore | ClaimRepository>): void => {
  it.effect(
    "a domain's write bumps its version; one decided from an older version is refused, changing nothing",
    () =>
      Effect.gen(function* () {
        const domains = yield* CustomDomainRepository
        const decided = yield* DecidedWritesStore
        const domain = yield* storedDomainOf(yield* freshHostname())
        expect(versionOf(yield* stored(domain))).toBe(0)
        const checked = applyVerdict(domain, verified, later(t0, minute))
        expect(yield* domains.update(checked)).toBe(true)
        expect(versionOf(yield* stored(domain))).toBe(1)
        // A second decision from the state before: refused, the first one stands.
        const stale = restartVerificationWindow(domain, later(t0, 2 * minute))
        expect(yield* domains.update(stale)).toBe(false)
        expect(yield* decided.storeDecided({ domains: [stale], claims: [] })).toBe(false)
        const now = Option.getOrThrow(yield* stored(domain))
        expect(now.status).toBe("verified")
        expect(now.version).toBe(1)
        // Decided again from what won, it is stored.
        expect(yield* domains.update(restartVerificationWindow(now, later(t0, 3 * minute)))).toBe(true)
        expect(versionOf(yield* stored(domain))).toBe(2)
      })
  )

  it.effect("a decision's writes are all or nothing: one stale row refuses them all", () =>
    Effect.gen(function* () {
      const domains = yield* CustomDomainRepository
      const decided = yield* DecidedWritesStore
      const claims = yield* ClaimRepository
      const hostname = yield* freshHostname()
      const [winner, loser] = [yield* storedDomainOf(hostname), yield* storedDomainOf(hostname)]
      const claim = yield* newClaimOf(winner.account, yield* freshHostname("apex"))
      expect(yield* claims.insert(claim, roomyLimits)).toBe(true)
      // The loser changes after the decision was taken.
      expect(yield* domains.update(restartVerificationWindow(loser, later(t0, minute)))).toBe(true)
      const won = applyVerdict(winner, verified, later(t0, 2 * minute))
      const lost = loseOwnership(loser, ownershipLostProblem(hostname, "proved"), later(t0, 2 * minute))
      const proved = applyClaimCheck(claim, found, later(t0, 2 * minute))
      expect(yield* decided.storeDecided({ domains: [lost, won], claims: [proved] })).toBe(false)
      expect(Option.getOrThrow(yield* stored(winner)).status).toBe("pending")
      expect(Option.getOrThrow(yield* stored(loser)).status).toBe("pending")
      expect(Option.getOrThrow(yield* storedClaim(claim)).status).toBe("pending")
      expect(yield* domains.findVerified(hostname)).toEqual(Option.none())

      // Decided again from the loser as it is now: all three stored, each one version on.
      const current = Option.getOrThrow(yield* stored(loser))
      const lostNow = loseOwnership(current, ownershipLostProblem(hostname, "proved"), later(t0, 3 * minute))
      expect(yield* decided.storeDecided({ domains: [lostNow, won], claims: [proved] })).toBe(true)
      expect(Option.map(yield* domains.findVerified(hostname), (found) => found.projectId)).toEqual(
        Option.some(winner.projectId)
      )
      expect(Option.getOrThrow(yield* stored(loser))).toMatchObject({ status: "failed", version: 2 })
      expect(Option.getOrThrow(yield* storedClaim(claim))).toMatchObject({ status: "verified", version: 1 })
      // A claim decided from its older version is refused too, and so is what travels with it.
      const lapsed = applyClaimCheck(claim, { _tag: "Missing", found: [] }, later(t0, 4 * minute))
      const rechecked = restartVerificationWindow(
        Option.getOrThrow(yield* stored(winner)),
        later(t0, 4 * minute)
      )
      expect(yield* decided.storeDecided({ domains: [rechecked], claims: [lapsed] })).toBe(false)
      expect(yield* claims.update(lapsed)).toBe(false)
      expect(Option.getOrThrow(yield* storedClaim(claim)).status).toBe("verified")
      expect(versionOf(yield* stored(winner))).toBe(1)
    })
  )

  it.effect("a removed row is no row to decide on: its write is refused, and so are those with it", () =>
    Effect.gen(function* () {
      const domains = yield* CustomDomainRepository
      const decided = yield* DecidedWritesStore
      const hostname = yield* freshHostname()
      const [kept, removed] = [yield* storedDomainOf(hostname), yield* storedDomainOf(hostname)]
      const gone = yield* domains.remove(removed.projectId, removed.hostname)
      expect(Option.map(gone, (domain) => domain.projectId)).toEqual(Option.some(removed.projectId))
      const lost = loseOwnership(removed, ownershipLostProblem(hostname, "proved"), later(t0, minute))
      const won = applyVerdict(kept, verified, later(t0, minute))
      expect(yield* decided.storeDecided({ domains: [lost, won], claims: [] })).toBe(false)
      expect(yield* stored(removed)).toEqual(Option.none())
      expect(Option.getOrThrow(yield* stored(kept)).status).toBe("pending")
    })
  )

  it.effect("one verified domain a hostname: a second is refused however it comes, a leased result too", () =>
    Effect.gen(function* () {
      const domains = yield* CustomDomainRepository
      const decided = yield* DecidedWritesStore
      const hostname = yield* freshHostname()
      const [first, second] = [yield* storedDomainOf(hostname), yield* storedDomainOf(hostname)]
      expect(yield* domains.update(applyVerdict(first, verified, later(t0, minute)))).toBe(true)
      expect(yield* domains.update(applyVerdict(second, verified, later(t0, minute)))).toBe(false)
      expect(
        yield* decided.storeDecided({
          domains: [applyVerdict(second, verified, later(t0, minute))],
          claims: []
        })
      ).toBe(false)
      // A worker's leased check of the second: its verified result is not stored either.
      const holder = `race-${yield* randomToken}`
      const due = later(t0, 100 * 365 * 24 * 60 * minute)
      const leased = yield* domains.claimDue(due, 1_000_000, { holder, until: later(due, minute) })
      const claimed = leased.find(
        (domain) => domain.projectId === second.projectId && domain.hostname === hostname
      )
      if (claimed !== undefined) {
        expect(
          yield* domains.completeChecks([{ claimed, result: applyVerdict(claimed, verified, due) }], holder)
        ).toEqual([])
      }
      const verifiedOnes = (yield* domains.listRivals([{ account: yield* freshAccount, hostname }])).filter(
        (domain) => domain.status === "verified"
      )
      expect(verifiedOnes.map((domain) => domain.projectId)).toEqual([first.projectId])
    })
  )

  it.effect("racing writers decided from one state: exactly one is stored", () =>
    Effect.gen(function* () {
      const domains = yield* CustomDomainRepository
      const domain = yield* storedDomainOf(yield* freshHostname())
      const decisions = Arr.range(1, 20).map((n) => restartVerificationWindow(domain, later(t0, n * minute)))
      const outcomes = yield* Effect.forEach(decisions, domains.update, { concurrency: "unbounded" })
      expect(outcomes.filter((stored) => stored)).toHaveLength(1)
      const winner = decisions[outcomes.indexOf(true)]
      const now = Option.getOrThrow(yield* stored(domain))
      expect(now.version).toBe(1)
      expect(now.verification.deadline).toEqual(winner?.verification.deadline)
    })
  )

  it.effect("racing accounts each verifying their own domain of one hostname: exactly one verified", () =>
    Effect.gen(function* () {
      const domains = yield* CustomDomainRepository
      const decided = yield* DecidedWritesStore
      const hostname = yield* freshHostname()
      const contenders = yield* Effect.forEach(Arr.range(1, 8), () => storedDomainOf(hostname))
      // Each takes the name from every other, as a proof does: only one decision can stand.
      const decisions = contenders.map((winner) => ({
        domains: [
          ...contenders
            .filter((other) => other !== winner)
            .map((other) =>
              loseOwnership(other, ownershipLostProblem(hostname, "proved"), later(t0, minute))
            ),
          applyVerdict(winner, verified, later(t0, minute))
        ],
        claims: []
      }))
      const outcomes = yield* Effect.forEach(decisions, decided.storeDecided, { concurrency: "unbounded" })
      expect(outcomes.filter((stored) => stored)).toHaveLength(1)
      const winner = contenders[outcomes.indexOf(true)]
      expect(Option.map(yield* domains.findVerified(hostname), (found) => found.projectId)).toEqual(
        Option.some(winner?.projectId)
      )
      for (const contender of contenders) {
        const now = Option.getOrThrow(yield* stored(contender))
        expect(now.status).toBe(contender === winner ? "verified" : "failed")
        expect(now.version).toBe(1)
      }
    })
  )

  it.effect("racing claim writers decided from one state: exactly one is stored", () =>
    Effect.gen(function* () {
      const claims = yield* ClaimRepository
      const claim = yield* newClaimOf(yield* freshAccount, yield* freshHostname("apex"))
      expect(yield* claims.insert(claim, roomyLimits)).toBe(true)
      const decisions = Arr.range(1, 20).map((n) =>
        applyClaimCheck(claim, n % 2 === 0 ? found : { _tag: "Missing", found: [] }, later(t0, n * minute))
      )
      const outcomes = yield* Effect.forEach(decisions, claims.update, { concurrency: "unbounded" })
      expect(outcomes.filter((stored) => stored)).toHaveLength(1)
      const winner = decisions[outcomes.indexOf(true)]
      const now = Option.getOrThrow(yield* storedClaim(claim))
      expect(now).toMatchObject({ version: 1, status: winner?.status, lastCheckedAt: winner?.lastCheckedAt })
    })
  )
}
