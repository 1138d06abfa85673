/**
 * Verify's cool-down (contract section 9) on a controlled clock: a Verify within the window of the
 * last DNS check of a domain or claim, whoever made it (a Verify, the worker), answers that check as
 * stored and asks DNS nothing; at the window's end it checks again. The window is the application's
 * setting; zero turns it off.
 */
import { describe, expect, it } from "@effect/vitest"
import { VerifyCooldown } from "@petstore/domains"
import { createClaim, verifyClaim } from "@petstore/ownership"
import { ProjectId } from "@petstore/projects"
import { Duration, Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { addDomain, checkDueCustomDomains, reverifyDomain, verifyNow } from "../src/index.js"
import { cnameToTarget, FakeWorld, fakeWorld, nxdomain, records } from "./support/CustomDomainWorld.js"
import { acme, deployedProject, second, t0, verifiedDomain } from "./support/UseCases.js"

const handbook = ProjectId.make("handbook")
const hostname = "docs.example.com"
const cooldown = Duration.seconds(10)
/** The world with the contract's window (the use-case tests run without one). */
const withCooldown = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(Effect.provideService(VerifyCooldown, cooldown), Effect.provide(fakeWorld))

/** The project with `hostname` added, nothing at the name yet; the world, to change DNS. */
const addedWithoutRecord = Effect.gen(function* () {
  const world = yield* FakeWorld
  yield* deployedProject(handbook)
  yield* addDomain(acme, handbook, hostname)
  yield* world.setDns(hostname, { cname: nxdomain })
  return world
})

/** The DNS questions asked while `effect` runs. */
const lookupsDuring = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const world = yield* FakeWorld
    const before = (yield* world.lookups).length
    const result = yield* effect
    return { result, asked: (yield* world.lookups).slice(before) }
  })

describe("Verify of a domain within the cool-down", () => {
  it.effect("answers the last check as stored, without a DNS question, until 10 seconds have passed", () =>
    withCooldown(
      Effect.gen(function* () {
        const world = yield* addedWithoutRecord
        const first = yield* lookupsDuring(verifyNow(acme, handbook, hostname))
        expect(first.result.status).toBe("pending")
        expect(first.asked.length).toBeGreaterThan(0)
        expect(first.result.verification.lastCheckedAt).toStrictEqual(new Date(t0))

        // DNS is fixed at once: a Verify 9.999 seconds after the check still answers that check.
        yield* world.setDns(hostname, cnameToTarget)
        yield* TestClock.adjust(10 * second - 1)
        const within = yield* lookupsDuring(verifyNow(acme, handbook, hostname))
        expect(within.asked).toStrictEqual([])
        expect(within.result).toStrictEqual(first.result)
        expect(within.result.verification.deadline).toStrictEqual(first.result.verification.deadline)

        // At 10 seconds the window has passed: checked, verified.
        yield* TestClock.adjust(1)
        const after = yield* lookupsDuring(verifyNow(acme, handbook, hostname))
        expect(after.asked).toContain(`cname ${hostname}`)
        expect(after.result.status).toBe("verified")
        expect(after.result.verification.lastCheckedAt).toStrictEqual(new Date(t0 + 10 * second))
      })
    )
  )

  it.effect("runs from the worker's check too, not only from the last Verify", () =>
    withCooldown(
      Effect.gen(function* () {
        const world = yield* addedWithoutRecord
        yield* TestClock.adjust(3 * second)
        // The worker checks the new domain (due at once).
        yield* checkDueCustomDomains({ holder: "w1", batchSize: 10, concurrency: 2, lease: "1 minute" })
        const checked = Option.getOrThrow(yield* world.storedDomain(hostname))
        expect(checked.verification.lastCheckedAt).toStrictEqual(new Date(t0 + 3 * second))

        yield* world.setDns(hostname, cnameToTarget)
        yield* TestClock.adjust(5 * second)
        const within = yield* lookupsDuring(verifyNow(acme, handbook, hostname))
        expect(within.asked).toStrictEqual([])
        expect(within.result.status).toBe("pending")
        expect(within.result).toStrictEqual(checked)
        yield* TestClock.adjust(5 * second)
        expect((yield* verifyNow(acme, handbook, hostname)).status).toBe("verified")
      })
    )
  )

  it.effect("a domain never checked is checked at once; with a window of zero every Verify checks", () =>
    Effect.gen(function* () {
      yield* addedWithoutRecord
      for (let click = 0; click < 3; click++) {
        const clicked = yield* lookupsDuring(verifyNow(acme, handbook, hostname))
        expect(clicked.asked).toContain(`cname ${hostname}`)
      }
    }).pipe(Effect.provideService(VerifyCooldown, Duration.zero), Effect.provide(fakeWorld))
  )

  it.effect("Re-verify within the window asks for the certificate afresh without a DNS question", () =>
    withCooldown(
      Effect.gen(function* () {
        yield* deployedProject(handbook)
        const verified = yield* verifiedDomain(handbook, hostname)
        yield* TestClock.adjust(2 * second)
        const again = yield* lookupsDuring(reverifyDomain(acme, handbook, hostname))
        expect(again.asked).toStrictEqual([])
        expect(again.result.status).toBe("verified")
        expect(again.result.issuance?.requestedAt).toStrictEqual(new Date(t0 + 2 * second))
        expect(again.result.verification.lastCheckedAt).toStrictEqual(verified.verification.lastCheckedAt)
      })
    )
  )
})

describe("Verify of a claim within the cool-down", () => {
  it.effect(
    "answers the last lookup of its record, without a DNS question, until 10 seconds have passed",
    () =>
      withCooldown(
        Effect.gen(function* () {
          const world = yield* FakeWorld
          yield* TestClock.setTime(t0)
          const { claim } = yield* createClaim(acme, "example.com")
          expect(claim.lastCheckedAt).toBeNull()
          const first = yield* lookupsDuring(verifyClaim(acme, "example.com"))
          expect(first.asked).toStrictEqual([`txt ${claim.txt.name}`])
          expect(first.result).toMatchObject({ status: "pending", lastCheckedAt: new Date(t0) })

          yield* world.setDns(claim.txt.name, { txt: records(claim.txt.value) })
          yield* TestClock.adjust(10 * second - 1)
          const within = yield* lookupsDuring(verifyClaim(acme, "example.com"))
          expect(within.asked).toStrictEqual([])
          expect(within.result).toStrictEqual(first.result)

          yield* TestClock.adjust(1)
          const after = yield* lookupsDuring(verifyClaim(acme, "example.com"))
          expect(after.asked).toStrictEqual([`txt ${claim.txt.name}`])
          expect(after.result).toMatchObject({
            status: "verified",
            lastCheckedAt: new Date(t0 + 10 * second)
          })
        })
      )
  )
})
