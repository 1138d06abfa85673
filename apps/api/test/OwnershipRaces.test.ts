/**
 * Races on ownership (contract section 4, "Races") through the BUILT API process, on the embedded
 * default (PGlite) and on PostgreSQL, DNS answered by pebble-challtestsrv: the losing account hammers
 * Verify while the owner proves the name, an owner clicks Verify many times at once, a domain is
 * removed during Verifies, and a claim is proved while another account verifies a name under it.
 * Verify's cool-down is off here (`builtApiLayer`), so that every Verify really checks and races; it
 * has tests of its own (`VerifyCooldown.test.ts`). Nothing may answer 5xx, the loser must end
 * `failed` with `ownership_lost`, and the edge must serve the owner's project only. The PostgreSQL
 * half fails (never skips) when the test server is unreachable.
 */
import { afterAll, describe, expect, layer, type Vitest } from "@effect/vitest"
import { Challtestsrv, challtestsrvLayer } from "@petstore/dns/testing"
import * as EdgeClient from "@petstore/edge/testing"
import { Array as Arr, Effect, Layer } from "effect"
import { cleanUp, freshDatabase } from "./support/ApiProcess.js"
import { BuiltApi, builtApiLayer, processPlatform } from "./support/BuiltApiServer.js"
import {
  type Answer,
  addDomain,
  type Caller,
  type ClaimBody,
  createClaim,
  type DomainBody,
  domainPath,
  edge,
  expectError,
  expectOk,
  getDomain,
  problemCodes,
  readyProject,
  send,
  verify,
  verifyClaim
} from "./support/DomainFlow.js"

afterAll(cleanUp)

const target = processPlatform.cnameTarget
/** The name's owner, who proves it (alice), and the account that had it first and loses it (bob). */
const ownerProject = "owner-docs"
const loserProject = "loser-docs"
/** How many Verifies the loser fires during each contest, and how many contests per storage. */
const hammering = 50
const contests = 4

const served = (projectId: string) => ({ action: "serve", projectId })

/** No answer of the batch is a 5xx, and each is one of `allowed`. */
const expectAnswered = (answers: ReadonlyArray<Answer>, allowed: ReadonlyArray<number>) => {
  for (const answer of answers) {
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500)
    expect(allowed, JSON.stringify(answer.body)).toContain(answer.status)
  }
}

/** What the edge's own HTTP listener serves for `host`: the project's page, or the redirect to HTTPS. */
const expectEdgeListenerServes = (host: string, projectId: string) =>
  Effect.gen(function* () {
    const api = yield* BuiltApi
    const page = yield* EdgeClient.http(api.edgeHttpPort, { host, path: "/" })
    if (page.status === 301) {
      expect(page.headers.location).toBe(`https://${host}/`)
    } else {
      expect(page.status).toBe(200)
      expect(page.body).toContain(`<h1>${projectId}</h1>`)
    }
  })

const expectNotServed = (host: string) =>
  Effect.gen(function* () {
    expectError(yield* edge(host), 404, "not_found")
    const api = yield* BuiltApi
    expect((yield* EdgeClient.http(api.edgeHttpPort, { host, path: "/" })).status).toBe(404)
  })

const domainOf = (project: string, hostname: string, as: Caller = "alice") =>
  Effect.map(getDomain(project, hostname, as), (answer) => expectOk<DomainBody>(answer))

/** `count` requests at once (`make` is given each one's index). */
const atOnce = <R>(count: number, make: (index: number) => Effect.Effect<Answer, never, R>) =>
  Effect.all(Arr.makeBy(count, make), { concurrency: "unbounded" })

/** The events of `project` for `hostname`, by type. */
const eventTypes = (project: string, hostname: string) =>
  Effect.map(send("GET", `/v1/projects/${project}/events?limit=100`), (answer) =>
    expectOk<ReadonlyArray<{ readonly type: string; readonly hostname: string }>>(answer)
      .filter((event) => event.hostname === hostname)
      .map((event) => event.type)
  )

const racesOn = (it: Vitest.MethodsNonLive<Challtestsrv>, storage: string) =>
  describe(`on ${storage}`, () => {
    const apiOn = Layer.unwrap(
      Effect.gen(function* () {
        const dns = yield* Challtestsrv
        if (storage === "the embedded default") return builtApiLayer(dns.server)
        const database = yield* Effect.promise(freshDatabase)
        return builtApiLayer(dns.server, { DATABASE_URL: database.url })
      })
    )

    it.layer(apiOn, { timeout: 240_000 })("through the built API process", (it) => {
      it.effect("two accounts, each with a paid, deployed project", () =>
        Effect.gen(function* () {
          yield* readyProject(ownerProject)
          yield* readyProject(loserProject, "bob")
        })
      )

      it.effect(
        `the loser fires ${hammering} Verifies while the owner proves the name, ${contests} times: the owner ends verified and served, the loser failed with ownership_lost`,
        () =>
          Effect.gen(function* () {
            const dns = yield* Challtestsrv
            for (let contest = 1; contest <= contests; contest++) {
              const hostname = `docs.contest-${contest}-${storage === "PostgreSQL" ? "pg" : "embedded"}.com`
              yield* dns.setCname(hostname, target)
              // The loser had the name first, uncontested: verified and served.
              expectOk(yield* addDomain(loserProject, hostname, "bob"), 201)
              expect((yield* verify(loserProject, hostname, "bob")).body).toMatchObject({
                status: "verified"
              })
              expect(expectOk(yield* edge(hostname))).toEqual(served(loserProject))

              // The owner adds it too and publishes its TXT record.
              const added = expectOk<DomainBody>(yield* addDomain(ownerProject, hostname), 201)
              expect(added.ownership.required).toBe(true)
              yield* dns.setTxt(added.ownership.name, added.ownership.value)

              // The owner's Verify lands among the loser's, at a different place each contest.
              const ownersTurn = Math.floor((hammering * contest) / (contests + 1))
              const answers = yield* atOnce(hammering + 1, (index) =>
                index === ownersTurn ? verify(ownerProject, hostname) : verify(loserProject, hostname, "bob")
              )
              expectAnswered(answers, [200])
              expect((answers[ownersTurn]?.body as DomainBody | undefined)?.status).toBe("verified")

              const won = yield* domainOf(ownerProject, hostname)
              expect(won.status).toBe("verified")
              const lost = yield* domainOf(loserProject, hostname, "bob")
              expect(lost.status).toBe("failed")
              expect(problemCodes(lost)).toStrictEqual(["ownership_lost"])
              expect(expectOk(yield* edge(hostname))).toEqual(served(ownerProject))
              yield* expectEdgeListenerServes(hostname, ownerProject)

              // Still hammering after the contest changes nothing: the loser stays lost.
              const after = yield* atOnce(10, () => verify(loserProject, hostname, "bob"))
              expectAnswered(after, [200])
              for (const answer of after) {
                const body = answer.body as DomainBody
                expect(body.status).toBe("failed")
                expect(problemCodes(body)).toStrictEqual(["ownership_lost"])
              }
              expect((yield* domainOf(ownerProject, hostname)).status).toBe("verified")
              expect(expectOk(yield* edge(hostname))).toEqual(served(ownerProject))
            }
          })
      )

      it.effect("the owner's many Verifies at once: one verification, told once, no 5xx", () =>
        Effect.gen(function* () {
          const dns = yield* Challtestsrv
          const hostname = `www.many-verifies-${storage === "PostgreSQL" ? "pg" : "embedded"}.com`
          expectOk(yield* addDomain(ownerProject, hostname), 201)
          yield* dns.setCname(hostname, target)
          const answers = yield* atOnce(20, () => verify(ownerProject, hostname))
          expectAnswered(answers, [200])
          for (const answer of answers) expect((answer.body as DomainBody).status).toBe("verified")
          expect((yield* domainOf(ownerProject, hostname)).status).toBe("verified")
          expect(expectOk(yield* edge(hostname))).toEqual(served(ownerProject))
          // Each Verify was decided from what the one before stored: the domain verified once.
          const told = yield* eventTypes(ownerProject, hostname)
          expect(told.filter((type) => type === "domain.verified")).toHaveLength(1)
          expect(told[0]).toBe("domain.added")
        })
      )

      it.effect("a removal during Verifies: the domain stays removed, nothing resurrects or serves it", () =>
        Effect.gen(function* () {
          const dns = yield* Challtestsrv
          for (let round = 1; round <= 3; round++) {
            const hostname = `shop.removed-${round}-${storage === "PostgreSQL" ? "pg" : "embedded"}.com`
            expectOk(yield* addDomain(ownerProject, hostname), 201)
            yield* dns.setCname(hostname, target)
            const removalAt = 5 * round
            const answers = yield* atOnce(21, (index) =>
              index === removalAt
                ? send("DELETE", domainPath(ownerProject, hostname))
                : verify(ownerProject, hostname)
            )
            expect(answers[removalAt]?.status).toBe(204)
            expectAnswered(
              answers.filter((_, index) => index !== removalAt),
              [200, 404]
            )
            expectError(yield* getDomain(ownerProject, hostname), 404, "not_found")
            const listed = expectOk<{ readonly domains: ReadonlyArray<DomainBody> }>(
              yield* send("GET", `/v1/projects/${ownerProject}/domains`)
            )
            expect(listed.domains.map((domain) => domain.hostname)).not.toContain(hostname)
            yield* expectNotServed(hostname)
            const told = yield* eventTypes(ownerProject, hostname)
            expect(told.at(-1)).toBe("domain.removed")
            expect(told.filter((type) => type === "domain.removed")).toHaveLength(1)
          }
        })
      )

      it.effect(
        "a claim proved while another account verifies a name under it: the claim holds, the name is lost and not served",
        () =>
          Effect.gen(function* () {
            const dns = yield* Challtestsrv
            const apex = `claimed-race-${storage === "PostgreSQL" ? "pg" : "embedded"}.com`
            const hostname = `docs.${apex}`
            yield* dns.setCname(hostname, target)
            expectOk(yield* addDomain(loserProject, hostname, "bob"), 201)
            expect((yield* verify(loserProject, hostname, "bob")).body).toMatchObject({ status: "verified" })
            const claim = expectOk<ClaimBody>(yield* createClaim(apex), 201)
            yield* dns.setTxt(claim.txt.name, claim.txt.value)
            const claimsTurn = 12
            const answers = yield* atOnce(31, (index) =>
              index === claimsTurn || index === claimsTurn + 10
                ? verifyClaim(apex)
                : verify(loserProject, hostname, "bob")
            )
            expectAnswered(answers, [200])
            expect((answers[claimsTurn]?.body as ClaimBody | undefined)?.status).toBe("verified")
            const lost = yield* domainOf(loserProject, hostname, "bob")
            expect(lost.status).toBe("failed")
            expect(problemCodes(lost)).toStrictEqual(["ownership_lost"])
            yield* expectNotServed(hostname)
            // Verify again changes nothing while the claim holds.
            const retried = expectOk<DomainBody>(yield* verify(loserProject, hostname, "bob"))
            expect(retried.status).toBe("failed")
            expect(problemCodes(retried)).toStrictEqual(["ownership_lost"])
          })
      )
    })
  })

// One pebble-challtestsrv for the whole file (see CustomDomainsFlow.test.ts: a second start in one
// process usually fails), each storage with a process of its own.
layer(challtestsrvLayer, { timeout: 30_000, excludeTestServices: true })("ownership races", (it) => {
  racesOn(it, "the embedded default")
  racesOn(it, "PostgreSQL")
})
