/**
 * The edge's decisions in memory, through the real listeners over stores whose every lookup is
 * counted: a served name costs storage one lookup, then none, on either listener and at every
 * handshake; every change that concerns a name (its domain, certificate or project, another account
 * taking its hostname) is seen at the very next request and handshake; names nothing is served at are kept apart, so a flood of them
 * never pushes a served name out; and one client address that makes storage look up too many
 * unknown names gets 429 (or a refused handshake) while served names keep answering at once and
 * other addresses are not affected.
 */
import { Agent } from "node:https"
import { describe, expect, layer } from "@effect/vitest"
import { addDomain } from "@petstore/custom-domains"
import { CustomDomain, CustomDomainRepository, loseOwnership } from "@petstore/domains"
import { AccountName } from "@petstore/kernel"
import { ownershipLostProblem } from "@petstore/ownership"
import { recordProjectDeploy } from "@petstore/projects"
import { DomainConfig, DomainRedirect, putDomainConfig } from "@petstore/serving"
import { Clock, Effect, Option } from "effect"
import { EdgeAddresses } from "../src/EdgeServer.js"
import { derOf, handshake, http, https } from "./support/EdgeClient.js"
import {
  account,
  countedMemoryStores,
  deployedProject,
  edgeOver,
  issueCertificate,
  StorageLookups,
  servedDomain,
  trustedRoot,
  verifiedDomain
} from "./support/EdgeFixture.js"

const ports = Effect.map(EdgeAddresses, (addresses) => ({
  http: addresses.http.port,
  https: addresses.https.port
}))

const lookups = Effect.map(StorageLookups, (counted) => ({
  hostnames: counted.hostnames(),
  total: counted.total()
}))

const elapsed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const start = performance.now()
    const value = yield* effect
    return { value, millis: performance.now() - start }
  })

layer(edgeOver(countedMemoryStores), { excludeTestServices: true, timeout: 60_000 })(
  "decisions kept in memory",
  (it) => {
    it.effect(
      "a served name makes no storage query after its first, over HTTPS (handshakes too) and HTTP",
      () =>
        Effect.gen(function* () {
          const { hostname } = yield* servedDomain("kept-docs", "docs.kept.com")
          const port = yield* ports
          const ca = yield* trustedRoot
          expect((yield* https(port.https, { host: hostname, ca })).status).toBe(200)
          const afterFirst = yield* lookups
          for (let n = 0; n < 5; n++) {
            // A new connection each time: a full handshake, then a request.
            expect((yield* https(port.https, { host: hostname, ca })).status).toBe(200)
            expect((yield* http(port.http, { host: hostname })).status).toBe(301)
          }
          expect(yield* lookups).toEqual(afterFirst)
        })
    )

    it.effect("a name nothing is served at is looked up once, then answered 404 from memory", () =>
      Effect.gen(function* () {
        const port = yield* ports
        const before = yield* lookups
        for (let n = 0; n < 5; n++) {
          expect((yield* http(port.http, { host: "docs.nothing-here.com" })).status).toBe(404)
        }
        expect((yield* lookups).hostnames).toBe(before.hostnames + 1)
      })
    )

    it.effect("a domain verified after it was refused is served at the next handshake and request", () =>
      Effect.gen(function* () {
        const projectId = yield* deployedProject("kept-pending")
        const hostname = yield* verifiedDomain(projectId, "docs.kept-pending.com")
        const domains = yield* CustomDomainRepository
        const stored = yield* domains.findInProject(projectId, hostname)
        if (Option.isNone(stored)) return yield* Effect.die("the domain is stored")
        yield* issueCertificate(hostname)
        const pending = new CustomDomain({ ...stored.value, status: "pending" })
        expect(yield* domains.update(pending)).toBe(true)
        const port = yield* ports
        const ca = yield* trustedRoot
        expect((yield* handshake(port.https, ca, hostname))._tag).toBe("Refused")
        expect((yield* http(port.http, { host: hostname })).status).toBe(404)
        // Verified again, decided from the pending domain as stored (its next version).
        const again = new CustomDomain({ ...pending, status: "verified", version: pending.version + 1 })
        expect(yield* domains.update(again)).toBe(true)
        expect((yield* handshake(port.https, ca, hostname))._tag).toBe("Accepted")
        expect((yield* https(port.https, { host: hostname, ca })).status).toBe(200)
      })
    )

    it.effect("a served name whose domain loses ownership to another account is refused at once", () =>
      Effect.gen(function* () {
        const { projectId, hostname } = yield* servedDomain("kept-lost", "docs.kept-lost.com")
        const rival = AccountName.make("rival-team")
        const rivalProject = yield* deployedProject("kept-rival", "pro", rival)
        const contender = yield* addDomain(rival, rivalProject, hostname)
        const port = yield* ports
        const ca = yield* trustedRoot
        const agent = yield* Effect.acquireRelease(
          Effect.sync(() => new Agent({ keepAlive: true, maxSockets: 1, ca: [ca] })),
          (agent) => Effect.sync(() => agent.destroy())
        )
        // Contested, the verified domain is still served (until the contender proves ownership), and
        // from memory: the change below must be what drops it.
        const contested = yield* https(port.https, { host: hostname, ca, agent })
        expect(contested.status).toBe(200)
        expect(contested.body).toContain("kept-lost")
        expect((yield* handshake(port.https, ca, hostname))._tag).toBe("Accepted")
        const kept = yield* lookups
        expect((yield* https(port.https, { host: hostname, ca, agent })).status).toBe(200)
        expect(yield* lookups).toEqual(kept)

        // The contender's proof takes the name: the loser's write is what must drop it (the winner,
        // stored with it, would be served for its own project).
        const domains = yield* CustomDomainRepository
        const stored = yield* domains.findInProject(projectId, hostname)
        if (Option.isNone(stored)) return yield* Effect.die("the domain is stored")
        const lostAt = new Date(yield* Clock.currentTimeMillis)
        const loser = loseOwnership(stored.value, ownershipLostProblem(hostname, "proved"), lostAt)
        expect(loser.status).toBe("failed")
        expect(contender.status).toBe("pending")
        expect(yield* domains.update(loser)).toBe(true)

        // The very next request, on the connection opened while it was served, and the next handshake.
        const afterLoss = yield* https(port.https, { host: hostname, ca, agent })
        expect(afterLoss.reusedSocket).toBe(true)
        expect(afterLoss.status).toBe(404)
        expect(afterLoss.body).not.toContain("kept-lost")
        expect((yield* handshake(port.https, ca, hostname))._tag).toBe("Refused")
        expect((yield* http(port.http, { host: hostname })).status).toBe(404)

        // The winner, once stored verified, is served as its own project.
        expect(yield* domains.update(new CustomDomain({ ...contender, status: "verified" }))).toBe(true)
        const won = yield* https(port.https, { host: hostname, ca })
        expect(won.status).toBe(200)
        expect(won.body).toContain("kept-rival")
        expect(won.body).not.toContain("kept-lost")
      })
    )

    it.effect("a redirect set on a served name, and a renewed certificate, are seen at once", () =>
      Effect.gen(function* () {
        const { projectId, hostname: primary } = yield* servedDomain(
          "kept-redirect",
          "docs.kept-redirect.com"
        )
        const www = yield* verifiedDomain(projectId, "www.kept-redirect.com")
        yield* issueCertificate(www)
        const port = yield* ports
        const ca = yield* trustedRoot
        expect((yield* https(port.https, { host: www, ca })).status).toBe(200)
        yield* putDomainConfig(
          account,
          projectId,
          new DomainConfig({
            primary,
            redirects: [new DomainRedirect({ from: www, to: primary, status: 301 })]
          })
        )
        const redirected = yield* https(port.https, { host: www, path: "/a?b=c", ca })
        expect(redirected.status).toBe(301)
        expect(redirected.headers.location).toBe(`https://${primary}/a?b=c`)

        const renewed = yield* issueCertificate(primary)
        const answer = yield* https(port.https, { host: primary, ca })
        expect(answer.status).toBe(200)
        expect(answer.peerCertificate?.equals(derOf(renewed.certificatePem))).toBe(true)
      })
    )

    it.effect("a project's default hostname refused before its first deploy is served right after it", () =>
      Effect.gen(function* () {
        const port = yield* ports
        const projectId = yield* deployedProject("kept-first")
        expect((yield* http(port.http, { host: `${projectId}.docs.test` })).status).toBe(200)
        expect((yield* http(port.http, { host: "kept-later.docs.test" })).status).toBe(404)
        yield* deployedProject("kept-later")
        expect((yield* http(port.http, { host: "kept-later.docs.test" })).status).toBe(200)
        // A failed deploy after a successful one: still served (the last success is what counts).
        yield* recordProjectDeploy(account, projectId, "failed")
        expect((yield* http(port.http, { host: `${projectId}.docs.test` })).status).toBe(200)
      })
    )
  }
)

layer(edgeOver(countedMemoryStores, { cacheCapacity: 50, unknownNameLimit: 10_000 }), {
  excludeTestServices: true,
  timeout: 60_000
})("names nothing is served at", (it) => {
  it.effect("are kept apart: a flood of them never pushes a served name out, only each other", () =>
    Effect.gen(function* () {
      const { hostname } = yield* servedDomain("apart-docs", "docs.apart.com")
      const port = yield* ports
      const ca = yield* trustedRoot
      expect((yield* https(port.https, { host: hostname, ca })).status).toBe(200)
      const before = yield* lookups
      const names = Array.from({ length: 200 }, (_, n) => `n${n}.made-up.com`)
      for (const name of names) expect((yield* http(port.http, { host: name })).status).toBe(404)
      expect((yield* lookups).hostnames).toBe(before.hostnames + 200)
      const afterFlood = yield* lookups
      expect((yield* https(port.https, { host: hostname, ca })).status).toBe(200)
      expect(yield* lookups).toEqual(afterFlood)
      // The first made-up names were pushed out by the later ones: bounded, not kept for ever.
      expect((yield* http(port.http, { host: names[0] ?? "" })).status).toBe(404)
      expect((yield* lookups).hostnames).toBe(afterFlood.hostnames + 1)
    })
  )
})

describe("a client making storage look up unknown names", () => {
  // A long window refills one token a minute: a slow machine cannot earn extra lookups mid-test.
  layer(edgeOver(countedMemoryStores, { unknownNameLimit: 20, unknownNameWindow: "20 minutes" }), {
    excludeTestServices: true,
    timeout: 60_000
  })("past its budget", (it) => {
    it.effect("gets 429 with Retry-After and refused handshakes, while served names answer at once", () =>
      Effect.gen(function* () {
        const { hostname } = yield* servedDomain("flood-docs", "docs.flood.com")
        const port = yield* ports
        const ca = yield* trustedRoot
        expect((yield* https(port.https, { host: hostname, ca })).status).toBe(200)
        const before = yield* lookups

        const flood = Effect.forEach(
          Array.from({ length: 300 }, (_, n) => `n${n}.flood-names.com`),
          (name) => http(port.http, { host: name }),
          { concurrency: 16 }
        )
        const served = Effect.forEach(
          Array.from({ length: 20 }),
          () => elapsed(https(port.https, { host: hostname, ca })),
          { concurrency: 2 }
        )
        const [answers, servedAnswers] = yield* Effect.all([flood, served], { concurrency: 2 })

        const statuses = answers.map((answer) => answer.status)
        expect(statuses.filter((status) => status === 404)).toHaveLength(20)
        expect(statuses.filter((status) => status === 429)).toHaveLength(280)
        const limited = answers.find((answer) => answer.status === 429)
        expect(limited?.body).toBe("Too many requests, try again later\n")
        expect(limited?.headers["content-type"]).toBe("text/plain; charset=utf-8")
        expect(limited?.headers["cache-control"]).toBe("no-store")
        const retryAfter = Number(limited?.headers["retry-after"])
        expect(retryAfter).toBeGreaterThanOrEqual(1)
        expect(retryAfter).toBeLessThanOrEqual(60)
        // Storage looked up no more unknown names than the budget, and nothing for the served one.
        expect((yield* lookups).hostnames).toBe(before.hostnames + 20)
        for (const { value, millis } of servedAnswers) {
          expect(value.status).toBe(200)
          expect(millis).toBeLessThan(1_000)
        }

        const spent = yield* lookups
        for (let n = 0; n < 5; n++) {
          expect((yield* handshake(port.https, ca, `h${n}.flood-names.com`))._tag).toBe("Refused")
        }
        const challenge = yield* http(port.http, {
          host: hostname,
          path: "/.well-known/acme-challenge/unknown-token"
        })
        expect(challenge.status).toBe(429)
        expect(yield* lookups).toEqual(spent)
        expect((yield* handshake(port.https, ca, hostname))._tag).toBe("Accepted")

        // Another address has a budget of its own.
        expect(
          (yield* http(port.http, { host: "other.flood-names.com", localAddress: "127.0.0.2" })).status
        ).toBe(404)
        expect((yield* handshake(port.https, ca, "h0.flood-names.com", "127.0.0.2"))._tag).toBe("Refused")
        expect((yield* lookups).hostnames).toBe(spent.hostnames + 2)
      })
    )
  })
})
