/**
 * The steps the use-case tests share, over the in-memory world: a deployed project, a domain added
 * and verified with its DNS right, and a typed failure expected.
 */
import { expect } from "@effect/vitest"
import { AccountName } from "@petstore/kernel"
import { createProject, type ProjectId, recordProjectDeploy } from "@petstore/projects"
import { Clock, Effect } from "effect"
import { TestClock } from "effect/testing"
import { addDomain, verifyNow } from "../../src/index.js"
import { aliasToTarget, cnameToTarget, FakeWorld } from "./CustomDomainWorld.js"

export const second = 1000
export const minute = 60 * second
export const hour = 60 * minute
export const day = 24 * hour
export const t0 = Date.parse("2027-03-01T12:00:00.000Z")
export const acme = AccountName.make("acme")
export const rival = AccountName.make("rival")

export const nowDate = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

/** A project of `account` on `plan` with a succeeded deploy, at t0 (the test clock is set to t0). */
export const deployedProject = (id: ProjectId, plan: "pro" | "enterprise" | "free" = "pro", account = acme) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(t0)
    yield* createProject(account, id, plan)
    return yield* recordProjectDeploy(account, id, "succeeded")
  })

/** Adds `hostname` to `id` with DNS already right, and verifies it. */
export const verifiedDomain = (id: ProjectId, hostname: string, account = acme) =>
  Effect.gen(function* () {
    const world = yield* FakeWorld
    yield* world.setDns(hostname, hostname.split(".").length === 2 ? aliasToTarget : cnameToTarget)
    yield* addDomain(account, id, hostname)
    const domain = yield* verifyNow(account, id, hostname)
    expect(domain.status).toBe("verified")
    return domain
  })

export const expectFailure = <A, E, R>(effect: Effect.Effect<A, E, R>, expected: unknown) =>
  Effect.map(Effect.flip(effect), (error) => expect(error).toStrictEqual(expected))
