/**
 * The behaviour every ClaimRepository must have, as a test suite run against each adapter: one claim
 * per account and apex (concurrent inserts too), several accounts' claims of one apex, and leased
 * rechecks. Accounts and apexes are fresh per test; leases see every due claim of the store, so each
 * lease test first leases whatever earlier tests left due to a holder of its own, for centuries
 * (`drainDue`).
 */
import { describe, expect, layer, type Vitest } from "@effect/vitest"
import type { Hostname } from "@petstore/domains"
import type { AccountName } from "@petstore/kernel"
import { applyClaimCheck, Claim, ClaimRepository, lapseClaim } from "@petstore/ownership"
import { Array as Arr, Effect, type Layer, Option, Schema } from "effect"
import {
  claimDecidedFromStored,
  freshAccount,
  freshHostname,
  insertAllAtOnce,
  later,
  newClaimOf,
  randomToken,
  roomyLimits,
  t0
} from "./ContractFixtures.js"

/** Every stored field, as plain values (dates as ISO strings, to the millisecond). */
const encodeClaim = Schema.encodeSync(Claim)
/** A claim's fields as stored, but its version (which each write bumps: see the cases of conditional writes). */
const fields = (claim: Claim) => {
  const { version: _version, ...stored } = encodeClaim(claim)
  return stored
}

interface ClaimKey {
  readonly account: string
  readonly apex: string
}
const keyOf = (claim: ClaimKey): string => `${claim.account} ${claim.apex}`
const keysOf = (claims: ReadonlyArray<ClaimKey>) => claims.map(keyOf)

const second = 1_000
const minute = 60 * second
const hour = 60 * minute

const found = { _tag: "Found" } as const
const missing = { _tag: "Missing", found: [] } as const
const unknown = { _tag: "Unknown", detail: "timeout: no answer" } as const

/** A claim proved at `at`: rechecked 24 hours later. */
const provedAt = (claim: Claim, at: Date): Claim => applyClaimCheck(claim, found, at)

/** The claim, rechecked at `at` (or never, with null). */
const dueAt = (claim: Claim, at: Date | null): Claim => new Claim({ ...claim, nextCheckAt: at })

const farFuture = new Date("2999-01-01T00:00:00.000Z")
const drainLease = { holder: "contract-drain", until: new Date("3000-01-01T00:00:00.000Z") }

/** Leases every claim due until the year 2999 away, so a lease test sees only its own claims. */
const drainDue = Effect.gen(function* () {
  const claims = yield* ClaimRepository
  while ((yield* claims.claimDue(farFuture, 1_000, drainLease)).length > 0) {
    // Leased away; look again until nothing is due.
  }
})

const freshHolder = (name: string) => Effect.map(randomToken, (token) => `${name}-${token}`)

/** A fresh account's new claim of a fresh apex, created at `createdAt`. */
const freshClaim = (createdAt: Date = t0, account?: AccountName, apex?: Hostname) =>
  Effect.gen(function* () {
    const owner = account ?? (yield* freshAccount)
    const name = apex ?? (yield* freshHostname("apex"))
    return yield* newClaimOf(owner, name, createdAt)
  })

export const claimRepositoryTests = (it: Vitest.MethodsNonLive<ClaimRepository>): void => {
  it.effect("insert, then findOwned returns every field, in every state; only the account finds it", () =>
    Effect.gen(function* () {
      const claims = yield* ClaimRepository
      const pending = yield* freshClaim(later(t0, 1))
      const proved = provedAt(yield* freshClaim(later(t0, 2)), later(t0, minute))
      const lapsed = applyClaimCheck(provedAt(yield* freshClaim(later(t0, 3)), t0), missing, later(t0, hour))
      const unanswered = applyClaimCheck(
        provedAt(yield* freshClaim(later(t0, 4)), t0),
        unknown,
        later(t0, hour)
      )
      const states = [pending, proved, lapsed, unanswered]
      expect(
        states.map((claim) => [claim.status, claim.verifiedAt !== null, claim.nextCheckAt !== null])
      ).toEqual([
        ["pending", false, false],
        ["verified", true, true],
        ["pending", false, false],
        ["verified", true, true]
      ])
      for (const claim of states) {
        expect(yield* claims.insert(claim, roomyLimits)).toBe(true)
        expect(Option.map(yield* claims.findOwned(claim.account, claim.apex), fields)).toEqual(
          Option.some(fields(claim))
        )
        expect(yield* claims.findOwned(yield* freshAccount, claim.apex)).toEqual(Option.none())
      }
      expect(yield* claims.findOwned(pending.account, yield* freshHostname("apex"))).toEqual(Option.none())
    })
  )

  it.effect("one claim per account and apex: a second insert is false and changes nothing", () =>
    Effect.gen(function* () {
      const claims = yield* ClaimRepository
      const claim = yield* freshClaim()
      expect(yield* claims.insert(claim, roomyLimits)).toBe(true)
      const again = provedAt(yield* newClaimOf(claim.account, claim.apex, later(t0, hour)), later(t0, hour))
      expect(yield* claims.insert(again, roomyLimits)).toBe(false)
      expect(Option.map(yield* claims.findOwned(claim.account, claim.apex), fields)).toEqual(
        Option.some(fields(claim))
      )
      expect((yield* claims.listByAccount(claim.account)).map(fields)).toEqual([fields(claim)])
    })
  )

  it.effect(
    "several accounts may claim one apex: listByApexes has them all, listByAccount only its own",
    () =>
      Effect.gen(function* () {
        const claims = yield* ClaimRepository
        const apex = yield* freshHostname("apex")
        const [a, b] = [yield* freshAccount, yield* freshAccount]
        const mine = yield* freshClaim(later(t0, 1), a, apex)
        const theirs = provedAt(yield* freshClaim(later(t0, 2), b, apex), later(t0, minute))
        const mineToo = yield* freshClaim(later(t0, 3), a)
        const elsewhere = yield* freshClaim(later(t0, 4), b)
        for (const claim of [mine, theirs, mineToo, elsewhere])
          expect(yield* claims.insert(claim, roomyLimits)).toBe(true)

        expect(
          [...(yield* claims.listByApexes([apex])).map(fields)].sort((x, y) =>
            keyOf(x).localeCompare(keyOf(y))
          )
        ).toEqual([fields(mine), fields(theirs)].sort((x, y) => keyOf(x).localeCompare(keyOf(y))))
        // An account's claims, oldest first.
        expect((yield* claims.listByAccount(a)).map(fields)).toEqual([fields(mine), fields(mineToo)])
        expect((yield* claims.listByAccount(b)).map(fields)).toEqual([fields(theirs), fields(elsewhere)])
        expect(yield* claims.listByAccount(yield* freshAccount)).toEqual([])
        expect(yield* claims.listByApexes([yield* freshHostname("apex")])).toEqual([])
        // Several apexes at once: each one's claims, oldest first; none asked, none answered.
        expect((yield* claims.listByApexes([elsewhere.apex, apex])).map(fields)).toEqual(
          [mine, theirs, elsewhere].map(fields)
        )
        expect(yield* claims.listByApexes([])).toEqual([])
      })
  )

  /** `count` new pending claims of `account`, each of a fresh apex (not stored). */
  const freshClaimsOf = (account: AccountName, count: number) =>
    Effect.forEach(Arr.range(1, count), () =>
      Effect.flatMap(freshHostname("apex"), (apex) => newClaimOf(account, apex))
    )

  it.effect(
    "limits: 12 concurrent pending claims at a limit of 5 pending store exactly 5, the rest refused naming it",
    () =>
      Effect.gen(function* () {
        const claims = yield* ClaimRepository
        const account = yield* freshAccount
        const limits = { claimsPerAccount: 20, pendingClaimsPerAccount: 5 }
        const { refused, stored } = yield* insertAllAtOnce(yield* freshClaimsOf(account, 12), (claim) =>
          claims.insert(claim, limits)
        )
        expect(stored).toEqual(Arr.replicate(true, 5))
        expect(refused).toHaveLength(7)
        for (const refusal of refused) {
          expect(refusal).toMatchObject({
            _tag: "LimitReached",
            limit: "pending claims per account",
            value: 5
          })
        }
        const owned = yield* claims.listByAccount(account)
        expect(owned).toHaveLength(5)
        // A claim of an apex the account has already is no new claim: false, not refused.
        const [existing] = owned
        if (existing !== undefined) {
          expect(yield* claims.insert(yield* newClaimOf(account, existing.apex), limits)).toBe(false)
        }
        // Another account has limits of its own.
        const [elsewhere] = yield* freshClaimsOf(yield* freshAccount, 1)
        if (elsewhere !== undefined) expect(yield* claims.insert(elsewhere, limits)).toBe(true)
      })
  )

  it.effect("limits: 30 concurrent claims at a limit of 20 store exactly 20, proved ones counted too", () =>
    Effect.gen(function* () {
      const claims = yield* ClaimRepository
      const account = yield* freshAccount
      const limits = { claimsPerAccount: 20, pendingClaimsPerAccount: 1_000 }
      // Three proved already: they count against the total, not against the pending claims.
      for (const claim of yield* freshClaimsOf(account, 3)) {
        expect(yield* claims.insert(claim, limits)).toBe(true)
        expect(yield* claims.update(applyClaimCheck(claim, { _tag: "Found" }, later(t0, 1)))).toBe(true)
      }
      const { refused, stored } = yield* insertAllAtOnce(yield* freshClaimsOf(account, 30), (claim) =>
        claims.insert(claim, limits)
      )
      expect(stored).toHaveLength(17)
      expect(refused).toHaveLength(13)
      for (const refusal of refused) {
        expect(refusal).toMatchObject({ _tag: "LimitReached", limit: "claims per account", value: 20 })
      }
      expect(yield* claims.listByAccount(account)).toHaveLength(20)
    })
  )

  it.effect("20 concurrent inserts of one account's apex: exactly one is true", () =>
    Effect.gen(function* () {
      const claims = yield* ClaimRepository
      const [account, apex] = [yield* freshAccount, yield* freshHostname("apex")]
      const candidates = yield* Effect.forEach(Arr.range(1, 20), (n) =>
        newClaimOf(account, apex, later(t0, n))
      )
      const inserted = yield* Effect.forEach(candidates, (row) => claims.insert(row, roomyLimits), {
        concurrency: "unbounded"
      })
      expect(inserted.filter((done) => done)).toHaveLength(1)
      const winner = candidates[inserted.indexOf(true)]
      expect((yield* claims.listByAccount(account)).map(fields)).toEqual(
        winner === undefined ? [] : [fields(winner)]
      )
    })
  )

  it.effect(
    "update replaces the claim (another account's of the apex untouched); false once it is gone",
    () =>
      Effect.gen(function* () {
        const claims = yield* ClaimRepository
        const claim = yield* freshClaim()
        const other = yield* freshClaim(t0, undefined, claim.apex)
        yield* Effect.forEach([claim, other], (row) => claims.insert(row, roomyLimits))
        const proved = provedAt(claim, later(t0, minute))
        expect(yield* claims.update(proved)).toBe(true)
        expect(Option.map(yield* claims.findOwned(claim.account, claim.apex), fields)).toEqual(
          Option.some(fields(proved))
        )
        const lapsed = yield* claimDecidedFromStored(lapseClaim(proved, later(t0, hour)))
        expect(yield* claims.update(lapsed)).toBe(true)
        expect(Option.map(yield* claims.findOwned(claim.account, claim.apex), fields)).toEqual(
          Option.some(fields(lapsed))
        )
        expect(Option.map(yield* claims.findOwned(other.account, other.apex), fields)).toEqual(
          Option.some(fields(other))
        )

        expect(yield* claims.remove(claim.account, claim.apex)).toBe(true)
        expect(yield* claims.update(proved)).toBe(false)
        expect(yield* claims.findOwned(claim.account, claim.apex)).toEqual(Option.none())
        expect(yield* claims.update(yield* freshClaim())).toBe(false)
      })
  )

  it.effect("remove: false when absent; only that account's claim goes, and the apex is free again", () =>
    Effect.gen(function* () {
      const claims = yield* ClaimRepository
      const claim = yield* freshClaim()
      const other = yield* freshClaim(t0, undefined, claim.apex)
      yield* Effect.forEach([claim, other], (row) => claims.insert(row, roomyLimits))
      expect(yield* claims.remove(yield* freshAccount, claim.apex)).toBe(false)
      expect(yield* claims.remove(claim.account, yield* freshHostname("apex"))).toBe(false)
      expect(yield* claims.remove(claim.account, claim.apex)).toBe(true)
      expect(yield* claims.remove(claim.account, claim.apex)).toBe(false)
      expect(keysOf(yield* claims.listByApexes([claim.apex]))).toEqual([keyOf(other)])
      const again = yield* newClaimOf(claim.account, claim.apex, later(t0, hour))
      expect(yield* claims.insert(again, roomyLimits)).toBe(true)
      expect(Option.map(yield* claims.findOwned(claim.account, claim.apex), fields)).toEqual(
        Option.some(fields(again))
      )
    })
  )

  it.effect(
    "claimDue: claims whose recheck is due and without a live lease, oldest due first, at most limit",
    () =>
      Effect.gen(function* () {
        const claims = yield* ClaimRepository
        yield* drainDue
        const proved = (n: number, at: Date | null) =>
          Effect.map(freshClaim(later(t0, n)), (claim) => dueAt(provedAt(claim, t0), at))
        const c1 = yield* proved(1, later(t0, 1 * second))
        const c3 = yield* proved(2, later(t0, 3 * second))
        const c2 = yield* proved(3, later(t0, 2 * second))
        const notYet = yield* proved(4, later(t0, 10 * second + 1))
        const never = yield* proved(5, null)
        const pending = yield* freshClaim(later(t0, 6))
        yield* Effect.forEach([c3, c1, notYet, c2, never, pending], (row) => claims.insert(row, roomyLimits))
        const now = later(t0, 10 * second)
        const [a, b, c] = [yield* freshHolder("a"), yield* freshHolder("b"), yield* freshHolder("c")]

        const first = yield* claims.claimDue(now, 2, { holder: a, until: later(now, minute) })
        expect(first.map(fields)).toEqual([fields(c1), fields(c2)])
        const rest = yield* claims.claimDue(now, 10, { holder: b, until: later(now, hour) })
        expect(rest.map(fields)).toEqual([fields(c3)])
        expect(yield* claims.claimDue(now, 10, { holder: a, until: later(now, minute) })).toEqual([])
        expect(yield* claims.claimDue(now, 0, { holder: c, until: later(now, minute) })).toEqual([])

        // A's leases end at now + 1 minute (exactly then they are free); B's last an hour.
        const afterA = later(now, minute)
        const justBefore = later(afterA, -1)
        expect(
          keysOf(yield* claims.claimDue(justBefore, 10, { holder: c, until: later(afterA, minute) }))
        ).toEqual(keysOf([notYet]))
        const taken = yield* claims.claimDue(afterA, 10, { holder: c, until: later(afterA, minute) })
        expect(keysOf(taken)).toEqual(keysOf([c1, c2]))
        // Once every lease has run out, all are due again in the same order; never a claim without a
        // next recheck, nor a pending one.
        expect(keysOf(yield* claims.claimDue(farFuture, 100, { holder: c, until: farFuture }))).toEqual(
          keysOf([c1, c2, c3, notYet])
        )
      })
  )

  it.effect("completeChecks stores results and ends leases only where the holder holds them; the count", () =>
    Effect.gen(function* () {
      const claims = yield* ClaimRepository
      yield* drainDue
      expect(yield* claims.completeChecks([], "nobody")).toBe(0)
      const due = (n: number) =>
        Effect.map(freshClaim(later(t0, n)), (claim) => dueAt(provedAt(claim, t0), later(t0, n)))
      const [kept, lapsing, removed, foreign] = [yield* due(1), yield* due(2), yield* due(3), yield* due(4)]
      yield* Effect.forEach([kept, lapsing, removed], (row) => claims.insert(row, roomyLimits))
      const [a, b] = [yield* freshHolder("a"), yield* freshHolder("b")]
      const now = later(t0, minute)
      expect(keysOf(yield* claims.claimDue(now, 10, { holder: a, until: later(now, hour) }))).toEqual(
        keysOf([kept, lapsing, removed])
      )
      yield* claims.insert(foreign, roomyLimits)
      expect(keysOf(yield* claims.claimDue(now, 10, { holder: b, until: later(now, hour) }))).toEqual(
        keysOf([foreign])
      )
      expect(yield* claims.remove(removed.account, removed.apex)).toBe(true)

      const checkedAt = later(now, second)
      const rechecked = applyClaimCheck(kept, found, checkedAt)
      const gone = applyClaimCheck(lapsing, missing, checkedAt)
      expect(
        yield* claims.completeChecks(
          [
            rechecked,
            gone,
            applyClaimCheck(removed, found, checkedAt),
            applyClaimCheck(foreign, found, checkedAt)
          ],
          a
        )
      ).toBe(2)
      for (const claim of [rechecked, gone, foreign]) {
        expect(Option.map(yield* claims.findOwned(claim.account, claim.apex), fields)).toEqual(
          Option.some(fields(claim))
        )
      }
      expect(yield* claims.findOwned(removed.account, removed.apex)).toEqual(Option.none())
      // A's leases ended with its results: its second try is refused; B still holds its own.
      expect(yield* claims.completeChecks([rechecked], a)).toBe(0)
      const foreignRechecked = applyClaimCheck(foreign, found, checkedAt)
      expect(yield* claims.completeChecks([foreignRechecked], b)).toBe(1)

      // The stored rechecks are due again at their next check, 24 hours later; the lapsed one never.
      const next = rechecked.nextCheckAt ?? farFuture
      expect(next).toEqual(later(checkedAt, 24 * hour))
      expect(yield* claims.claimDue(later(next, -1), 10, { holder: b, until: farFuture })).toEqual([])
      expect(keysOf(yield* claims.claimDue(next, 10, { holder: b, until: later(next, hour) }))).toEqual(
        keysOf([rechecked, foreignRechecked])
      )
    })
  )

  it.effect("an update (Verify clicked) ends a running recheck's lease: its stale result is not stored", () =>
    Effect.gen(function* () {
      const claims = yield* ClaimRepository
      yield* drainDue
      const claim = dueAt(provedAt(yield* freshClaim(), t0), later(t0, second))
      yield* claims.insert(claim, roomyLimits)
      const holder = yield* freshHolder("w")
      expect(
        keysOf(yield* claims.claimDue(later(t0, second), 10, { holder, until: later(t0, hour) }))
      ).toEqual(keysOf([claim]))
      const clicked = applyClaimCheck(claim, found, later(t0, minute))
      expect(yield* claims.update(clicked)).toBe(true)
      expect(
        yield* claims.completeChecks([applyClaimCheck(claim, missing, later(t0, 2 * minute))], holder)
      ).toBe(0)
      expect(Option.map(yield* claims.findOwned(claim.account, claim.apex), fields)).toEqual(
        Option.some(fields(clicked))
      )
    })
  )

  it.effect("releaseLease: only the holder's release counts, and the claim is due again at once", () =>
    Effect.gen(function* () {
      const claims = yield* ClaimRepository
      yield* drainDue
      const claim = dueAt(provedAt(yield* freshClaim(), t0), later(t0, second))
      const sameApex = yield* freshClaim(t0, undefined, claim.apex)
      yield* Effect.forEach([claim, sameApex], (row) => claims.insert(row, roomyLimits))
      const now = later(t0, minute)
      const [a, b, c] = [yield* freshHolder("a"), yield* freshHolder("b"), yield* freshHolder("c")]
      expect(keysOf(yield* claims.claimDue(now, 10, { holder: a, until: later(now, hour) }))).toEqual(
        keysOf([claim])
      )
      yield* claims.releaseLease(claim.account, claim.apex, b)
      yield* claims.releaseLease(sameApex.account, claim.apex, a)
      expect(yield* claims.claimDue(now, 10, { holder: c, until: later(now, hour) })).toEqual([])
      yield* claims.releaseLease(claim.account, claim.apex, a)
      expect(keysOf(yield* claims.claimDue(now, 10, { holder: c, until: later(now, hour) }))).toEqual(
        keysOf([claim])
      )
      // A's second release comes too late: C holds it now. Unknown claims are harmless.
      yield* claims.releaseLease(claim.account, claim.apex, a)
      yield* claims.releaseLease(yield* freshAccount, yield* freshHostname("apex"), c)
      expect(yield* claims.claimDue(now, 10, { holder: b, until: later(now, hour) })).toEqual([])
      expect(Option.map(yield* claims.findOwned(claim.account, claim.apex), fields)).toEqual(
        Option.some(fields(claim))
      )
    })
  )

  it.effect("concurrent claims: 100 due claims, 4 holders, each leased exactly once", () =>
    Effect.gen(function* () {
      const claims = yield* ClaimRepository
      yield* drainDue
      const due = yield* Effect.forEach(Arr.range(1, 100), (n) =>
        Effect.map(freshClaim(t0), (claim) => dueAt(provedAt(claim, t0), later(t0, (n * 7_919) % 100_000)))
      )
      yield* Effect.forEach(due, (row) => claims.insert(row, roomyLimits), { concurrency: 8 })
      const now = later(t0, 200 * second)
      const leaseAll = (holder: string) =>
        Effect.gen(function* () {
          const leased: Array<string> = []
          while (true) {
            const batch = yield* claims.claimDue(now, 7, { holder, until: later(now, hour) })
            if (batch.length === 0) return leased
            expect(batch.length).toBeLessThanOrEqual(7)
            leased.push(...keysOf(batch))
          }
        })
      const holders = yield* Effect.forEach(Arr.range(1, 4), (n) => freshHolder(`w${n}`))
      const everything = (yield* Effect.forEach(holders, leaseAll, { concurrency: "unbounded" })).flat()
      expect(everything).toHaveLength(100)
      expect([...everything].sort()).toEqual(keysOf(due).sort())
    })
  )
}

/** Runs the suite against one fresh store built from `store`. */
export const claimRepositoryContract = <E>(name: string, store: Layer.Layer<ClaimRepository, E>): void =>
  layer(store, { excludeTestServices: true })(name, (it) =>
    describe("ClaimRepository", () => claimRepositoryTests(it))
  )
