/**
 * Claims through the use cases (contract section 4), over the in-memory world: creating, listing and
 * proving them, what a proved claim takes from other accounts and gives back when deleted, and the
 * worker's daily recheck.
 */
import { describe, expect, it } from "@effect/vitest"
import { InvalidDomainRequest, type Problem } from "@petstore/domains"
import {
  ClaimNotFound,
  checkDueClaims,
  createClaim,
  DomainClaimed,
  deleteClaim,
  getClaim,
  listClaims,
  verifyClaim
} from "@petstore/ownership"
import { ProjectId } from "@petstore/projects"
import { resolveEdge } from "@petstore/serving"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { addDomain, verifyNow } from "../src/index.js"
import { FakeWorld, fakeWorld, nxdomain, records, servfail } from "./support/CustomDomainWorld.js"
import {
  acme,
  day,
  deployedProject,
  expectFailure,
  hour,
  nowDate,
  rival,
  verifiedDomain
} from "./support/UseCases.js"

const handbook = ProjectId.make("handbook")
const guide = ProjectId.make("guide")
const apex = "example.com"
const txtName = "_petstore-challenge.example.com"
const codes = (problems: ReadonlyArray<Problem>) => problems.map((problem) => problem.code)
const options = { holder: "worker-1", batchSize: 10, concurrency: 2, lease: "1 minute" } as const

/** acme's handbook and rival's guide, both paid and deployed. */
const twoAccounts = Effect.gen(function* () {
  yield* deployedProject(handbook)
  yield* deployedProject(guide, "pro", rival)
  return yield* FakeWorld
})

/** acme's claim of example.com, its record published and verified. */
const provedClaim = Effect.gen(function* () {
  const world = yield* FakeWorld
  const { claim } = yield* createClaim(acme, apex)
  yield* world.setDns(txtName, { txt: records(claim.txt.value) })
  const proved = yield* verifyClaim(acme, apex)
  expect(proved.status).toBe("verified")
  return proved
})

describe("createClaim", () => {
  it.effect("creates a pending claim with the TXT record of the account's token for the apex", () =>
    Effect.gen(function* () {
      yield* twoAccounts
      const { claim, created } = yield* createClaim(acme, "Example.COM.")
      expect(created).toBe(true)
      expect(claim.apex).toBe("example.com")
      expect(claim.status).toBe("pending")
      expect(claim.verifiedAt).toBeNull()
      expect(claim.txt.name).toBe(txtName)
      expect(claim.txt.value).toMatch(/^petstore-verification=[0-9a-f]{32}$/)
      // One token per account and name: the apex's own domain carries the same record.
      const domain = yield* addDomain(acme, handbook, apex)
      expect(domain.ownership.value).toBe(claim.txt.value)
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("answers the existing claim (created: false) when the account claims the apex again", () =>
    Effect.gen(function* () {
      yield* twoAccounts
      const first = yield* createClaim(acme, apex)
      yield* TestClock.adjust("1 hour")
      const again = yield* createClaim(acme, "EXAMPLE.com")
      expect(again).toStrictEqual({ claim: first.claim, created: false })
      expect(yield* listClaims(acme)).toStrictEqual([first.claim])
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect(
    "gives another account a claim of its own, with its own record, and shows neither to the other",
    () =>
      Effect.gen(function* () {
        yield* twoAccounts
        const ours = yield* createClaim(acme, apex)
        const theirs = yield* createClaim(rival, apex)
        expect(theirs.created).toBe(true)
        expect(theirs.claim.txt.value).not.toBe(ours.claim.txt.value)
        expect(yield* listClaims(acme)).toStrictEqual([ours.claim])
        expect(yield* listClaims(rival)).toStrictEqual([theirs.claim])
      }).pipe(Effect.provide(fakeWorld))
  )

  it.effect.each<readonly [string, string]>([
    ["docs.example.com", "apex: must be a registrable domain such as example.com, not a name under one"],
    ["co.uk", "apex: must be under a public suffix such as .com"],
    ["localhost", "apex: must have at least two labels, such as example.com"],
    ["docs-platform.net", "apex: must not be under docs-platform.net"],
    ["", "apex: must be a hostname such as docs.example.com"]
  ])("refuses %j with InvalidDomainRequest %j", ([text, message]) =>
    Effect.gen(function* () {
      yield* twoAccounts
      yield* expectFailure(createClaim(acme, text), new InvalidDomainRequest({ message }))
      expect(yield* listClaims(acme)).toStrictEqual([])
    }).pipe(Effect.provide(fakeWorld))
  )
})

describe("listClaims, getClaim", () => {
  it.effect("lists the account's claims oldest first, and finds one by its apex in any spelling", () =>
    Effect.gen(function* () {
      yield* twoAccounts
      const older = yield* createClaim(acme, "example.org")
      yield* TestClock.adjust("1 minute")
      const newer = yield* createClaim(acme, "example.co.uk")
      expect(yield* listClaims(acme)).toStrictEqual([older.claim, newer.claim])
      expect(yield* getClaim(acme, "EXAMPLE.org.")).toStrictEqual(older.claim)
      expect(yield* getClaim(acme, "Example.Co.UK")).toStrictEqual(newer.claim)
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("never finds another account's claim, nor anything that is not an apex", () =>
    Effect.gen(function* () {
      yield* twoAccounts
      yield* createClaim(acme, apex)
      yield* expectFailure(getClaim(rival, apex), new ClaimNotFound({ apex }))
      yield* expectFailure(verifyClaim(rival, apex), new ClaimNotFound({ apex }))
      yield* expectFailure(deleteClaim(rival, apex), new ClaimNotFound({ apex }))
      for (const text of ["docs.example.com", "not an apex", "example.net"]) {
        yield* expectFailure(getClaim(acme, text), new ClaimNotFound({ apex: text }))
      }
      expect(yield* listClaims(acme)).toHaveLength(1)
    }).pipe(Effect.provide(fakeWorld))
  )
})

describe("verifyClaim", () => {
  it.effect("leaves the claim pending without its record, and proves it once the record is there", () =>
    Effect.gen(function* () {
      const world = yield* twoAccounts
      const { claim } = yield* createClaim(acme, apex)
      const pending = yield* verifyClaim(acme, apex)
      expect(pending.status).toBe("pending")
      expect(pending.verifiedAt).toBeNull()
      expect(pending.nextCheckAt).toBeNull()
      yield* world.setDns(txtName, { txt: records("v=spf1 -all", ` ${claim.txt.value} `) })
      yield* TestClock.adjust("1 hour")
      const now = yield* nowDate
      const proved = yield* verifyClaim(acme, apex)
      expect(proved.status).toBe("verified")
      expect(proved.verifiedAt).toStrictEqual(now)
      expect(proved.nextCheckAt).toStrictEqual(new Date(now.getTime() + day))
      expect(yield* getClaim(acme, apex)).toStrictEqual(proved)
      expect(yield* world.lookups).toContain(`txt ${txtName}`)
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("leaves the claim pending when the lookup gets no answer", () =>
    Effect.gen(function* () {
      const world = yield* twoAccounts
      yield* createClaim(acme, apex)
      yield* world.setDns(txtName, { txt: servfail })
      const checked = yield* verifyClaim(acme, apex)
      expect(checked.status).toBe("pending")
      expect(checked.nextCheckAt).toBeNull()
    }).pipe(Effect.provide(fakeWorld))
  )
})

describe("a proved claim", () => {
  it.effect("refuses other accounts' new names at or under the apex (DomainClaimed), not the claimer's", () =>
    Effect.gen(function* () {
      yield* twoAccounts
      yield* provedClaim
      for (const hostname of ["example.com", "docs.example.com", "a.b.example.com"]) {
        yield* expectFailure(addDomain(rival, guide, hostname), new DomainClaimed({ hostname }))
      }
      expect((yield* addDomain(rival, guide, "docs.example.org")).status).toBe("pending")
      const own = yield* addDomain(acme, handbook, "docs.example.com")
      expect(own.ownership.required).toBe(false)
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect(
    "fails other accounts' domains under the apex with ownership_lost, and Verify keeps them so",
    () =>
      Effect.gen(function* () {
        const world = yield* twoAccounts
        yield* verifiedDomain(guide, "docs.example.com", rival)
        yield* addDomain(rival, guide, "www.example.com")
        yield* verifiedDomain(guide, "docs.example.org", rival)
        yield* provedClaim
        for (const hostname of ["docs.example.com", "www.example.com"]) {
          const lost = Option.getOrThrow(yield* world.storedDomain(hostname, guide))
          expect(lost.status).toBe("failed")
          expect(codes(lost.verification.problems)).toStrictEqual(["ownership_lost"])
          expect(lost.verification.problems[0]?.message).toContain("example.com and every name under it")
        }
        expect(yield* resolveEdge("docs.example.com")).toStrictEqual({ action: "none" })
        expect(Option.getOrThrow(yield* world.storedDomain("docs.example.org", guide)).status).toBe(
          "verified"
        )

        const retried = yield* verifyNow(rival, guide, "docs.example.com")
        expect(retried.status).toBe("failed")
        expect(codes(retried.verification.problems)).toStrictEqual(["ownership_lost"])
        expect(yield* resolveEdge("docs.example.com")).toStrictEqual({ action: "none" })
      }).pipe(Effect.provide(fakeWorld))
  )

  it.effect(
    "verifies the claimer's domains on its proof alone: no TXT lookup of theirs, no wildcard warning",
    () =>
      Effect.gen(function* () {
        const world = yield* twoAccounts
        yield* world.setDns("*.example.com", { cname: records("cname.docs-platform.net") })
        yield* addDomain(rival, guide, "docs.example.com")
        yield* provedClaim
        const own = yield* addDomain(acme, handbook, "docs.example.com")
        const checked = yield* verifyNow(acme, handbook, "docs.example.com")
        expect(checked.status).toBe("verified")
        expect(checked.verification.problems).toStrictEqual([])
        expect(yield* world.lookups).not.toContain(`txt ${own.ownership.name}`)
        expect(yield* resolveEdge("docs.example.com")).toStrictEqual({ action: "serve", projectId: handbook })
      }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("frees the names when deleted: other accounts add and verify them again", () =>
    Effect.gen(function* () {
      const world = yield* twoAccounts
      yield* verifiedDomain(guide, "docs.example.com", rival)
      yield* provedClaim
      yield* expectFailure(
        addDomain(rival, guide, "www.example.com"),
        new DomainClaimed({ hostname: "www.example.com" })
      )
      yield* deleteClaim(acme, "EXAMPLE.com")
      expect(yield* listClaims(acme)).toStrictEqual([])
      yield* expectFailure(deleteClaim(acme, apex), new ClaimNotFound({ apex }))

      const added = yield* addDomain(rival, guide, "www.example.com")
      expect(added.ownership.required).toBe(false)
      const back = yield* verifyNow(rival, guide, "docs.example.com")
      expect(back.status).toBe("verified")
      expect(Option.getOrThrow(yield* world.storedDomain("docs.example.com", guide)).status).toBe("verified")
      expect(yield* resolveEdge("docs.example.com")).toStrictEqual({ action: "serve", projectId: guide })
    }).pipe(Effect.provide(fakeWorld))
  )
})

describe("a pending claim", () => {
  it.effect("makes other accounts' names under the apex need their TXT record (rule 3)", () =>
    Effect.gen(function* () {
      const world = yield* twoAccounts
      yield* createClaim(rival, apex)
      yield* world.setDns("docs.example.com", { cname: records("cname.docs-platform.net") })
      const added = yield* addDomain(acme, handbook, "docs.example.com")
      expect(added.ownership.required).toBe(true)
      const refused = yield* verifyNow(acme, handbook, "docs.example.com")
      expect(refused.status).toBe("pending")
      expect(codes(refused.verification.problems)).toStrictEqual(["ownership_required"])
      yield* world.setDns(added.ownership.name, { txt: records(added.ownership.value) })
      expect((yield* verifyNow(acme, handbook, "docs.example.com")).status).toBe("verified")
    }).pipe(Effect.provide(fakeWorld))
  )
})

describe("checkDueClaims", () => {
  it.effect("rechecks a proved claim 24 hours after its proof, keeping its first verifiedAt", () =>
    Effect.gen(function* () {
      const world = yield* twoAccounts
      const proved = yield* provedClaim
      yield* TestClock.adjust(day - 1)
      expect(yield* checkDueClaims(options)).toStrictEqual({ claimed: 0, completed: 0 })
      yield* TestClock.adjust(1)
      expect(yield* checkDueClaims(options)).toStrictEqual({ claimed: 1, completed: 1 })
      const rechecked = Option.getOrThrow(yield* world.storedClaim(acme, apex))
      expect(rechecked.status).toBe("verified")
      expect(rechecked.verifiedAt).toStrictEqual(proved.verifiedAt)
      expect(rechecked.lastCheckedAt).toStrictEqual(yield* nowDate)
      expect(rechecked.nextCheckAt).toStrictEqual(new Date((yield* nowDate).getTime() + day))
      expect(yield* world.claimLeaseOf(acme, apex)).toBeNull()
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("lapses a claim whose record is gone: pending, and the names free for other accounts", () =>
    Effect.gen(function* () {
      const world = yield* twoAccounts
      yield* provedClaim
      yield* world.setDns(txtName, { txt: nxdomain })
      yield* TestClock.adjust(day)
      expect(yield* checkDueClaims(options)).toStrictEqual({ claimed: 1, completed: 1 })
      const lapsed = Option.getOrThrow(yield* world.storedClaim(acme, apex))
      expect(lapsed.status).toBe("pending")
      expect(lapsed.verifiedAt).toBeNull()
      expect(lapsed.nextCheckAt).toBeNull()
      expect((yield* addDomain(rival, guide, "docs.example.com")).status).toBe("pending")
      // A pending claim is not the worker's: it waits for Verify.
      yield* TestClock.adjust(2 * day)
      expect(yield* checkDueClaims(options)).toStrictEqual({ claimed: 0, completed: 0 })
    }).pipe(Effect.provide(fakeWorld))
  )

  it.effect("keeps a claim whose recheck gets no answer, and tries again 1 hour later", () =>
    Effect.gen(function* () {
      const world = yield* twoAccounts
      const proved = yield* provedClaim
      yield* world.setDns(txtName, { txt: servfail })
      yield* TestClock.adjust(day)
      expect(yield* checkDueClaims(options)).toStrictEqual({ claimed: 1, completed: 1 })
      const kept = Option.getOrThrow(yield* world.storedClaim(acme, apex))
      expect(kept.status).toBe("verified")
      expect(kept.verifiedAt).toStrictEqual(proved.verifiedAt)
      expect(kept.nextCheckAt).toStrictEqual(new Date((yield* nowDate).getTime() + hour))
      yield* expectFailure(
        addDomain(rival, guide, "docs.example.com"),
        new DomainClaimed({ hostname: "docs.example.com" })
      )
      yield* world.setDns(txtName, { txt: records(proved.txt.value) })
      yield* TestClock.adjust(hour)
      expect(yield* checkDueClaims(options)).toStrictEqual({ claimed: 1, completed: 1 })
      expect(Option.getOrThrow(yield* world.storedClaim(acme, apex)).nextCheckAt).toStrictEqual(
        new Date((yield* nowDate).getTime() + day)
      )
    }).pipe(Effect.provide(fakeWorld))
  )
})
