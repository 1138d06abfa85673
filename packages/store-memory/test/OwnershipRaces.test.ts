/**
 * Races on ownership through the use cases on the memory store, with DNS that yields between
 * answers so that concurrent Verifies interleave: the loser's Verifies around the owner's proof,
 * many times over, and the owner's concurrent Verifies of one domain. The same contest runs through
 * the built process on PGlite and PostgreSQL (apps/api `OwnershipRaces.test.ts`).
 */
import { describe, expect, it } from "@effect/vitest"
import { addDomain, verifyNow } from "@petstore/custom-domains"
import { type DnsAnswer, DnsResolver, PlatformSettings, VerifyCooldown } from "@petstore/domains"
import { listProjectEvents } from "@petstore/events"
import { AccountName } from "@petstore/kernel"
import { createProject, ProjectId, recordProjectDeploy } from "@petstore/projects"
import { resolveEdge } from "@petstore/serving"
import { Array as Arr, Duration, Effect, Layer, Option } from "effect"
import { MemoryStore } from "../src/index.js"

const cnameTarget = "edge.races-platform.test"
const owner = AccountName.make("owner")
const loser = AccountName.make("loser")
const ownerProject = ProjectId.make("owner-docs")
const loserProject = ProjectId.make("loser-docs")

/** TXT values by name, as the test publishes them; every custom name's CNAME reaches the target. */
const published = new Map<string, string>()

const answer = <A>(records: ReadonlyArray<A>): DnsAnswer<A> =>
  Arr.isReadonlyArrayNonEmpty(records)
    ? { _tag: "Records", records }
    : { _tag: "NoRecords", reason: "nxdomain" }

// Each answer waits a turn, as a network answer does: the Verifies in flight interleave.
const racingDns = Layer.succeed(DnsResolver, {
  cname: (name) => Effect.as(Effect.yieldNow, answer(name.startsWith("docs.") ? [cnameTarget] : [])),
  addresses: () => Effect.as(Effect.yieldNow, answer<string>([])),
  txt: (name) =>
    Effect.as(Effect.yieldNow, answer(Option.toArray(Option.fromNullishOr(published.get(name))))),
  caa: () => Effect.succeed(answer([]))
})

const world = Layer.mergeAll(
  MemoryStore.layer,
  racingDns,
  Layer.succeed(PlatformSettings, {
    platformDomain: "races-platform.test",
    cnameTarget,
    caIdentifier: "letsencrypt.org"
  }),
  Layer.succeed(VerifyCooldown, Duration.zero)
)

const readyProjects = Effect.gen(function* () {
  for (const [account, id] of [
    [owner, ownerProject],
    [loser, loserProject]
  ] as const) {
    yield* createProject(account, id, "pro")
    yield* recordProjectDeploy(account, id, "succeeded")
  }
})

describe("ownership races on the memory store", () => {
  it.effect(
    "the loser's 50 Verifies around the owner's proof, 20 contests: the owner wins each, the loser stays lost",
    () =>
      Effect.gen(function* () {
        yield* readyProjects
        for (let contest = 0; contest < 20; contest++) {
          const hostname = `docs.contest-${contest}.com`
          yield* addDomain(loser, loserProject, hostname)
          expect((yield* verifyNow(loser, loserProject, hostname)).status).toBe("verified")
          const added = yield* addDomain(owner, ownerProject, hostname)
          published.set(added.ownership.name, added.ownership.value)
          const ownersTurn = (contest * 7) % 51
          const outcomes = yield* Effect.all(
            Arr.makeBy(51, (index) =>
              index === ownersTurn
                ? verifyNow(owner, ownerProject, hostname)
                : verifyNow(loser, loserProject, hostname)
            ),
            { concurrency: "unbounded" }
          )
          expect(outcomes[ownersTurn]?.status).toBe("verified")
          expect(yield* resolveEdge(hostname)).toStrictEqual({ action: "serve", projectId: ownerProject })
          const lost = yield* verifyNow(loser, loserProject, hostname)
          expect(lost.status).toBe("failed")
          expect(lost.verification.problems.map((problem) => problem.code)).toStrictEqual(["ownership_lost"])
          expect(yield* resolveEdge(hostname)).toStrictEqual({ action: "serve", projectId: ownerProject })
        }
      }).pipe(Effect.provide(world))
  )

  it.effect("the owner's 20 Verifies of one domain at once: verified once, told once", () =>
    Effect.gen(function* () {
      yield* readyProjects
      const hostname = "docs.many-verifies.com"
      yield* addDomain(owner, ownerProject, hostname)
      const outcomes = yield* Effect.all(
        Arr.makeBy(20, () => verifyNow(owner, ownerProject, hostname)),
        { concurrency: "unbounded" }
      )
      for (const outcome of outcomes) expect(outcome.status).toBe("verified")
      const events = yield* listProjectEvents(owner, ownerProject, { after: Option.none(), limit: 100 })
      expect(
        events.events.filter((event) => event.hostname === hostname).map((event) => event.type)
      ).toStrictEqual(["domain.added", "domain.verified"])
    }).pipe(Effect.provide(world))
  )
})
