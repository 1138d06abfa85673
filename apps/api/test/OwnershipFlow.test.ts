/**
 * Ownership of custom domains (contract section 4) end to end, through the BUILT API process
 * (`dist/main.js` on the embedded default, with its own worker loop and edge) asking a real DNS server
 * (pebble-challtestsrv, whose records the tests set between steps), with two accounts whose keys the
 * key CLI made: a dangling record, a squat, a claim, the names an existing owner keeps, and bad input.
 *
 * Two cases cannot run on that process as it is: a claim's daily recheck (the process runs on the
 * real clock) runs in process on an adjustable clock, with the very loop the API process runs; and a
 * wildcard record, which pebble-challtestsrv cannot serve, comes from dnsmasq, for a second process.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, layer } from "@effect/vitest"
import { LocalCertificateAuthority } from "@petstore/acme"
import { Challtestsrv, challtestsrvLayer } from "@petstore/dns/testing"
import * as EdgeClient from "@petstore/edge/testing"
import { TestDnsServer } from "@petstore/testing"
import { Duration, Effect, Layer, Schedule } from "effect"
import { ClockControl } from "./support/AdjustableClock.js"
import { cleanUp } from "./support/ApiProcess.js"
import { BuiltApi, builtApiLayer, processPlatform } from "./support/BuiltApiServer.js"
import {
  addDomain,
  type ClaimBody,
  claimsPath,
  createClaim,
  type DomainBody,
  deleteClaim,
  domainOnce,
  domainPath,
  edge,
  expectError,
  expectOk,
  flowLayer,
  getClaim,
  getDomain,
  listClaims,
  problemCodes,
  readyProject,
  send,
  verify,
  verifyClaim
} from "./support/DomainFlow.js"

afterAll(cleanUp)

const target = processPlatform.cnameTarget
const aliceProject = "alice-docs"
const bobProject = "bob-docs"
const served = (projectId: string) => ({ action: "serve", projectId })
const tokenValue = /^petstore-verification=[0-9a-f]{32}$/

/** What the edge's own HTTP listener answers for `host`. */
const edgeListener = (host: string) =>
  Effect.flatMap(BuiltApi, (api) => EdgeClient.http(api.edgeHttpPort, { host, path: "/" }))

/** The root of the process's own CA (kept in its data directory), which its edge's certificates chain to. */
const internalRoot = (api: BuiltApi["Service"]) =>
  readFileSync(join(api.dataDir, "internal-ca", "root.crt"), "utf8")

/** Neither the edge's decision nor its listener serves `host`. */
const expectNotServed = (host: string) =>
  Effect.gen(function* () {
    expectError(yield* edge(host), 404, "not_found")
    expect((yield* edgeListener(host)).status).toBe(404)
  })

/**
 * The edge serves `host` for `projectId`, by its decision and on its listeners: the project's page over
 * HTTP until the name's certificate is issued, then a redirect to HTTPS, which serves the page.
 */
const expectServedFor = (host: string, projectId: string) =>
  Effect.gen(function* () {
    expect(expectOk(yield* edge(host))).toEqual(served(projectId))
    const api = yield* BuiltApi
    const plain = yield* edgeListener(host)
    if (plain.status === 301) expect(plain.headers.location).toBe(`https://${host}/`)
    const page =
      plain.status === 301
        ? yield* EdgeClient.https(api.edgeHttpsPort, { host, path: "/", ca: internalRoot(api) })
        : plain
    expect(page.status).toBe(200)
    expect(page.body).toContain(`<h1>${projectId}</h1>`)
  })

const problemOf = (domain: DomainBody, code: string) =>
  domain.verification.problems.find((problem) => problem.code === code)

const ownershipOf = (hostname: string, required: boolean) => ({
  type: "TXT",
  name: `_petstore-challenge.${hostname}`,
  value: expect.stringMatching(tokenValue),
  required
})

/** The claim once `done` holds for it (the worker's rechecks run in the background). */
const claimOnce = (
  apex: string,
  done: (claim: ClaimBody) => boolean,
  within: Duration.Input = "15 seconds"
) =>
  Effect.map(getClaim(apex), (answer) => expectOk<ClaimBody>(answer)).pipe(
    Effect.filterOrFail(done, () => "not yet" as const),
    Effect.retry(Schedule.spaced("100 millis")),
    Effect.timeoutOrElse({
      duration: within,
      orElse: () => Effect.fail(new Error(`the claim of ${apex} did not reach the expected state in time`))
    })
  )

const apiOnChalltestsrv = Layer.unwrap(Effect.map(Challtestsrv, (dns) => builtApiLayer(dns.server)))

// One pebble-challtestsrv for the whole file (see CustomDomainsFlow.test.ts: a second start in one
// process usually fails).
layer(challtestsrvLayer, { timeout: 30_000, excludeTestServices: true })("ownership end to end", (it) => {
  it.layer(apiOnChalltestsrv, { timeout: 120_000 })("through the built API process", (it) => {
    it.effect("two accounts, each with a paid, deployed project the other cannot see", () =>
      Effect.gen(function* () {
        yield* readyProject(aliceProject)
        yield* readyProject(bobProject, "bob")
        expectError(
          yield* send("GET", `/v1/projects/${aliceProject}/domains`, { as: "bob" }),
          404,
          "not_found"
        )
        expectError(yield* send("GET", `/v1/projects/${bobProject}/domains`), 404, "not_found")
      })
    )

    it.effect(
      "a dangling record: a name its owner removed but left pointing at the platform is not served for whoever adds it next",
      () =>
        Effect.gen(function* () {
          const dns = yield* Challtestsrv
          const hostname = "blog.dangling-docs.com"
          yield* dns.setCname(hostname, target)
          const owned = expectOk<DomainBody>(yield* addDomain(aliceProject, hostname), 201)
          expect(owned.ownership).toEqual(ownershipOf(hostname, false))
          const verified = expectOk<DomainBody>(yield* verify(aliceProject, hostname))
          expect(verified).toMatchObject({ status: "verified", verification: { problems: [] } })
          yield* expectServedFor(hostname, aliceProject)
          expect((yield* send("DELETE", domainPath(aliceProject, hostname))).status).toBe(204)
          yield* expectNotServed(hostname)

          // The CNAME is left behind; bob adds the name: accepted, but only its TXT record proves it.
          const taken = expectOk<DomainBody>(yield* addDomain(bobProject, hostname, "bob"), 201)
          expect(taken.status).toBe("pending")
          expect(taken.ownership).toEqual(ownershipOf(hostname, true))
          expect(taken.ownership.value).not.toBe(owned.ownership.value)
          const refused = expectOk<DomainBody>(yield* verify(bobProject, hostname, "bob"))
          expect(refused.status).toBe("pending")
          expect(problemCodes(refused)).toEqual(["ownership_required"])
          const required = problemOf(refused, "ownership_required")
          expect(required?.message).toContain(taken.ownership.name)
          expect(required?.message).toContain(taken.ownership.value)
          expect(required?.message).not.toContain(owned.ownership.value)
          yield* expectNotServed(hostname)
          // Nor do the worker's own checks of the new domain.
          yield* Effect.sleep("500 millis")
          expect(expectOk<DomainBody>(yield* getDomain(bobProject, hostname, "bob")).status).toBe("pending")
          yield* expectNotServed(hostname)

          // Whoever really owns the name now proves it with bob's record: then it is bob's.
          yield* dns.setTxt(taken.ownership.name, taken.ownership.value)
          const proved = expectOk<DomainBody>(yield* verify(bobProject, hostname, "bob"))
          expect(proved).toMatchObject({ status: "verified", verification: { problems: [] } })
          yield* expectServedFor(hostname, bobProject)
        })
    )

    it.effect(
      "a squat: the account that adds a name first cannot keep it from the account that proves it owns it",
      () =>
        Effect.gen(function* () {
          const dns = yield* Challtestsrv
          const hostname = "login.squat-docs.com"
          const squat = expectOk<DomainBody>(yield* addDomain(bobProject, hostname, "bob"), 201)
          expect(squat).toMatchObject({ status: "pending", ownership: ownershipOf(hostname, false) })

          // No 409 for the owner: a 201 whose verification needs the TXT record.
          const owner = expectOk<DomainBody>(yield* addDomain(aliceProject, hostname), 201)
          expect(owner).toMatchObject({ status: "pending", ownership: ownershipOf(hostname, true) })
          expect(owner.ownership.value).not.toBe(squat.ownership.value)
          // The squatter's domain is contested from then on.
          const contested = expectOk<DomainBody>(yield* getDomain(bobProject, hostname, "bob"))
          expect(contested.ownership).toEqual({ ...squat.ownership, required: true })

          // With the CNAME alone neither verifies.
          yield* dns.setCname(hostname, target)
          const withoutRecord = expectOk<DomainBody>(yield* verify(bobProject, hostname, "bob"))
          expect(withoutRecord.status).toBe("pending")
          expect(problemCodes(withoutRecord)).toEqual(["ownership_required"])
          yield* expectNotServed(hostname)

          yield* dns.setTxt(owner.ownership.name, owner.ownership.value)
          const won = expectOk<DomainBody>(yield* verify(aliceProject, hostname))
          expect(won).toMatchObject({ status: "verified", verification: { problems: [] } })
          // The very next edge requests serve the owner's project.
          yield* expectServedFor(hostname, aliceProject)

          const lost = expectOk<DomainBody>(yield* getDomain(bobProject, hostname, "bob"))
          expect(lost.status).toBe("failed")
          expect(problemCodes(lost)).toEqual(["ownership_lost"])
          expect(lost.verification.nextCheckAt).toBeNull()
          expect(lost.certificate.status).toBe("none")

          // The squatter clicking Verify gets nothing: the TXT record there is the owner's, so its
          // domain stays lost (not a contender again).
          const retried = expectOk<DomainBody>(yield* verify(bobProject, hostname, "bob"))
          expect(retried.status).toBe("failed")
          expect(problemCodes(retried)).toEqual(["ownership_lost"])
          yield* expectServedFor(hostname, aliceProject)
          expect(expectOk<DomainBody>(yield* getDomain(aliceProject, hostname)).status).toBe("verified")

          // The owner's certificate comes; the page served over HTTPS is the owner's project.
          const issued = yield* domainOnce(
            aliceProject,
            hostname,
            (domain) => domain.certificate.status === "issued"
          )
          expect(issued.status).toBe("verified")
          const api = yield* BuiltApi
          const page = yield* EdgeClient.https(api.edgeHttpsPort, {
            host: hostname,
            path: "/",
            ca: internalRoot(api)
          })
          expect(page.status).toBe(200)
          expect(page.body).toContain(`<h1>${aliceProject}</h1>`)
          expect(page.body).not.toContain(bobProject)
        })
    )

    describe("claims", () => {
      const apex = "claimed-docs.com"

      it.effect(
        "a proved claim keeps every name under the apex for its account; deleting it frees them",
        () =>
          Effect.gen(function* () {
            const dns = yield* Challtestsrv
            // Bob has a name under the apex, verified and served, before alice claims it.
            const bobsName = `wiki.${apex}`
            yield* dns.setCname(bobsName, target)
            expectOk(yield* addDomain(bobProject, bobsName, "bob"), 201)
            expect(expectOk<DomainBody>(yield* verify(bobProject, bobsName, "bob")).status).toBe("verified")
            yield* expectServedFor(bobsName, bobProject)

            const created = yield* createClaim("Claimed-Docs.COM.")
            const claim = expectOk<ClaimBody>(created, 201)
            expect(claim).toEqual({
              apex,
              status: "pending",
              txt: { name: `_petstore-challenge.${apex}`, value: expect.stringMatching(tokenValue) },
              verifiedAt: null,
              lastCheckedAt: null
            })
            // Claiming again answers the same claim, 200.
            expect(expectOk<ClaimBody>(yield* createClaim(apex), 200)).toEqual(claim)
            expect(expectOk<{ claims: ReadonlyArray<ClaimBody> }>(yield* listClaims())).toEqual({
              claims: [claim]
            })

            // While the claim is pending, another account's new name there needs its TXT record.
            const pendingTime = expectOk<DomainBody>(yield* addDomain(bobProject, `blog.${apex}`, "bob"), 201)
            expect(pendingTime.ownership.required).toBe(true)

            // Verify without the record: still pending; bob's name still served.
            const notYet = expectOk<ClaimBody>(yield* verifyClaim(apex))
            expect(notYet).toEqual({ ...claim, lastCheckedAt: notYet.lastCheckedAt })
            expect(notYet.lastCheckedAt).not.toBeNull()
            yield* expectServedFor(bobsName, bobProject)

            yield* dns.setTxt(claim.txt.name, claim.txt.value)
            const proved = expectOk<ClaimBody>(yield* verifyClaim(apex))
            expect(proved).toMatchObject({ apex, status: "verified", txt: claim.txt })
            expect(Number.isNaN(Date.parse(proved.verifiedAt ?? ""))).toBe(false)
            expect(expectOk<ClaimBody>(yield* getClaim(apex))).toEqual(proved)

            // Bob's name there is lost, and not served from the very next request.
            yield* expectNotServed(bobsName)
            const lost = expectOk<DomainBody>(yield* getDomain(bobProject, bobsName, "bob"))
            expect(lost.status).toBe("failed")
            expect(problemCodes(lost)).toEqual(["ownership_lost"])
            expect(problemOf(lost, "ownership_lost")?.message).toContain(apex)
            const blogLost = expectOk<DomainBody>(yield* getDomain(bobProject, `blog.${apex}`, "bob"))
            expect(blogLost.status).toBe("failed")
            expect(problemCodes(blogLost)).toEqual(["ownership_lost"])

            // Bob can add nothing at or under the apex.
            for (const [name, hostname] of [
              [`shop.${apex}`, `shop.${apex}`],
              [apex, apex],
              [`a.b.${apex}`, `a.b.${apex}`],
              [`Shop.${apex.toUpperCase()}.`, `shop.${apex}`]
            ] as const) {
              expectError(yield* addDomain(bobProject, name, "bob"), 409, "domain_claimed", hostname)
            }
            // Bob's Verify does not bring his name back.
            expect(expectOk<DomainBody>(yield* verify(bobProject, bobsName, "bob")).status).toBe("failed")
            yield* expectNotServed(bobsName)

            // Alice's own names there need no record of their own: the claim is the proof.
            const alices = expectOk<DomainBody>(yield* addDomain(aliceProject, bobsName), 201)
            expect(alices.ownership.required).toBe(false)
            const alicesVerified = expectOk<DomainBody>(yield* verify(aliceProject, bobsName))
            expect(alicesVerified).toMatchObject({ status: "verified", verification: { problems: [] } })
            yield* expectServedFor(bobsName, aliceProject)

            // Deleting the claim frees the names for other accounts again (not the ones already lost).
            expect((yield* deleteClaim(apex)).status).toBe(204)
            expectError(yield* getClaim(apex), 404, "not_found")
            expect(expectOk(yield* listClaims())).toEqual({ claims: [] })
            const freed = expectOk<DomainBody>(yield* addDomain(bobProject, `shop.${apex}`, "bob"), 201)
            expect(freed).toMatchObject({ status: "pending", ownership: ownershipOf(`shop.${apex}`, false) })
            expect(expectOk<DomainBody>(yield* getDomain(bobProject, bobsName, "bob")).status).toBe("failed")
            yield* expectServedFor(bobsName, aliceProject)
          })
      )

      it.effect("another account's claim is never visible: it reads like one that does not exist", () =>
        Effect.gen(function* () {
          const dns = yield* Challtestsrv
          const hidden = "hidden-claim.com"
          const claim = expectOk<ClaimBody>(yield* createClaim(hidden), 201)
          yield* dns.setTxt(claim.txt.name, claim.txt.value)
          expect(expectOk<ClaimBody>(yield* verifyClaim(hidden)).status).toBe("verified")

          expect(expectOk(yield* listClaims("bob"))).toEqual({ claims: [] })
          const absent = "never-claimed.com"
          const operations = [
            ["get", (apex: string) => getClaim(apex, "bob")],
            ["verify", (apex: string) => verifyClaim(apex, "bob")],
            ["delete", (apex: string) => deleteClaim(apex, "bob")]
          ] as const
          for (const [name, run] of operations) {
            const other = expectError(yield* run(hidden), 404, "not_found")
            const missing = expectError(yield* run(absent), 404, "not_found")
            expect({ name, ...other, message: other.message.replaceAll(hidden, absent) }).toEqual({
              name,
              ...missing
            })
          }
          // Nothing bob did touched alice's claim.
          expect(expectOk<ClaimBody>(yield* getClaim(hidden))).toMatchObject({ status: "verified" })

          // Bob's own claim of the same apex is his alone and says nothing of alice's.
          const bobs = expectOk<ClaimBody>(yield* createClaim(hidden, "bob"), 201)
          expect(bobs).toMatchObject({ apex: hidden, status: "pending", txt: { name: claim.txt.name } })
          expect(bobs.txt.value).not.toBe(claim.txt.value)
          const bobsChecked = expectOk<ClaimBody>(yield* verifyClaim(hidden, "bob"))
          expect(bobsChecked.status).toBe("pending")
          expect(expectOk(yield* listClaims("bob"))).toEqual({ claims: [bobsChecked] })
          expect(bobsChecked).toEqual({ ...bobs, lastCheckedAt: bobsChecked.lastCheckedAt })
          expect(expectOk<ClaimBody>(yield* getClaim(hidden))).toMatchObject({ status: "verified" })
          expect((yield* deleteClaim(hidden, "bob")).status).toBe(204)
          expect(expectOk<ClaimBody>(yield* getClaim(hidden))).toMatchObject({ status: "verified" })
          expectError(yield* createClaim(hidden, "nobody"), 401, "unauthorized")
          expectError(yield* listClaims("nobody"), 401, "unauthorized")
        })
      )

      it.effect(
        "refuses what is not a registrable domain of a customer, and bodies that are not a claim",
        () =>
          Effect.gen(function* () {
            const apexRule = /^apex: /
            const notApex = [
              "docs.example.com",
              "a.b.example.co.uk",
              "192.0.2.1",
              "[2001:db8::1]",
              "com",
              "co.uk",
              processPlatform.platformDomain,
              `x.${processPlatform.platformDomain}`,
              "petstore-cdn.test",
              target,
              "",
              "   ",
              "not a host",
              "under_score.com",
              `${"a".repeat(64)}.com`,
              `${"a".repeat(300)}.com`,
              "localhost"
            ]
            for (const apex of notApex) {
              expectError(yield* createClaim(apex), 400, "invalid_request", apexRule)
            }
            const subdomain = expectError(yield* createClaim("docs.example.com"), 400, "invalid_request")
            expect(subdomain.message).toMatch(/^apex: must be a registrable domain/)
            for (const apex of [42, null, true, ["example.com"], { name: "example.com" }]) {
              expectError(yield* createClaim(apex), 400, "invalid_request", apexRule)
            }
            expectError(yield* send("POST", claimsPath, { body: {} }), 400, "invalid_request", apexRule)
            expectError(yield* send("POST", claimsPath, { body: "[]" }), 400, "invalid_request", /^body: /)
            expectError(yield* send("POST", claimsPath, { body: '{"apex":' }), 400, "invalid_request")
            expectError(yield* send("POST", claimsPath, { body: "" }), 400, "invalid_request")
            expectError(
              yield* send("POST", claimsPath, { body: { apex: "x".repeat(70 * 1024) } }),
              413,
              "payload_too_large"
            )
            expectError(
              yield* send("POST", claimsPath, {
                body: "apex=example.com",
                headers: { "content-type": "text/plain" }
              }),
              415,
              "unsupported_media_type"
            )
            // Nothing was claimed by any of it.
            const listed = expectOk<{ claims: ReadonlyArray<ClaimBody> }>(yield* listClaims())
            expect(listed.claims.map((claim) => claim.apex)).toEqual(["hidden-claim.com"])
          })
      )
    })

    it.effect(
      "a domain verified before anyone else wanted it stays verified and served while another account only adds it",
      () =>
        Effect.gen(function* () {
          const dns = yield* Challtestsrv
          const hostname = "docs.kept-docs.com"
          yield* dns.setCname(hostname, target)
          expectOk(yield* addDomain(aliceProject, hostname), 201)
          const verified = expectOk<DomainBody>(yield* verify(aliceProject, hostname))
          expect(verified).toMatchObject({ status: "verified", ownership: ownershipOf(hostname, false) })
          yield* expectServedFor(hostname, aliceProject)

          const contender = expectOk<DomainBody>(yield* addDomain(bobProject, hostname, "bob"), 201)
          expect(contender.ownership.required).toBe(true)
          const kept = expectOk<DomainBody>(yield* getDomain(aliceProject, hostname))
          expect(kept).toMatchObject({ status: "verified", ownership: { required: true } })
          yield* expectServedFor(hostname, aliceProject)

          const refused = expectOk<DomainBody>(yield* verify(bobProject, hostname, "bob"))
          expect(refused.status).toBe("pending")
          expect(problemCodes(refused)).toEqual(["ownership_required"])
          yield* expectServedFor(hostname, aliceProject)

          // The owner's own Verify keeps it verified, advising the record.
          const advised = expectOk<DomainBody>(yield* verify(aliceProject, hostname))
          expect(advised.status).toBe("verified")
          expect(problemCodes(advised)).toEqual(["ownership_required"])
          expect(problemOf(advised, "ownership_required")?.message).toContain(advised.ownership.value)
          yield* expectServedFor(hostname, aliceProject)
        })
    )
  })

  // The daily recheck of a proved claim, on a clock the test moves: the loop the API process runs
  // (`runCustomDomainChecks`, claims included), in process over PostgreSQL, asking the same DNS server.
  it.layer(flowLayer({ issuer: LocalCertificateAuthority.issuerLayer() }), { timeout: 60_000 })(
    "the worker's daily recheck of claims",
    (it) => {
      it.effect(
        "a claim whose TXT record is gone lapses to pending at its recheck; names open up again",
        () =>
          Effect.gen(function* () {
            const dns = yield* Challtestsrv
            const clock = yield* ClockControl
            const apex = "lapsing-docs.com"
            yield* readyProject("bob-site", "bob")
            const claim = expectOk<ClaimBody>(yield* createClaim(apex), 201)
            yield* dns.setTxt(claim.txt.name, claim.txt.value)
            const proved = expectOk<ClaimBody>(yield* verifyClaim(apex))
            expect(proved.status).toBe("verified")
            expectError(yield* addDomain("bob-site", `docs.${apex}`, "bob"), 409, "domain_claimed")

            // A recheck that finds the record keeps it as it is, checked a day later.
            yield* clock.advance(Duration.sum(Duration.hours(24), Duration.minutes(1)))
            yield* Effect.sleep("1 second")
            const rechecked = expectOk<ClaimBody>(yield* getClaim(apex))
            expect(rechecked).toEqual({ ...proved, lastCheckedAt: rechecked.lastCheckedAt })
            expect(Date.parse(rechecked.lastCheckedAt ?? "")).toBeGreaterThan(
              Date.parse(proved.lastCheckedAt ?? "")
            )

            yield* dns.clearTxt(claim.txt.name)
            // Not before the next daily recheck (had the one above not run, it would lapse now)...
            yield* Effect.sleep("500 millis")
            expect(expectOk<ClaimBody>(yield* getClaim(apex)).status).toBe("verified")
            // ...at which it lapses.
            yield* clock.advance(Duration.sum(Duration.hours(24), Duration.minutes(1)))
            const lapsed = yield* claimOnce(apex, (current) => current.status === "pending")
            expect(lapsed).toEqual({
              ...proved,
              status: "pending",
              verifiedAt: null,
              lastCheckedAt: lapsed.lastCheckedAt
            })
            expect(Date.parse(lapsed.lastCheckedAt ?? "")).toBeGreaterThan(
              Date.parse(rechecked.lastCheckedAt ?? "")
            )

            // Bob may add names there again, though they need their record while alice's claim stands.
            const added = expectOk<DomainBody>(yield* addDomain("bob-site", `docs.${apex}`, "bob"), 201)
            expect(added.ownership).toEqual(ownershipOf(`docs.${apex}`, true))
          })
      )
    }
  )
})

// A wildcard record, which pebble-challtestsrv cannot serve: dnsmasq, for a process of its own.
// dnsmasq answers a wildcard CNAME only for a zone it is authoritative for.
const wildcardZone = "wildcard-docs.com"
const apiOnWildcardDns = Layer.unwrap(
  Effect.map(
    TestDnsServer.start([
      `--auth-server=ns.${wildcardZone},127.0.0.1`,
      `--auth-zone=${wildcardZone}`,
      "--local=/petstore-cdn.test/",
      `--host-record=${target},192.0.2.10`,
      `--cname=*.${wildcardZone},${target}`
    ]),
    ({ server }) => builtApiLayer(server)
  )
)

layer(apiOnWildcardDns, { timeout: 120_000, excludeTestServices: true })("a wildcard record", (it) => {
  it.effect(
    "verifies the name and says, without blocking, that every name under its parent reaches the platform",
    () =>
      Effect.gen(function* () {
        yield* readyProject(aliceProject)
        const hostname = `docs.${wildcardZone}`
        const added = expectOk<DomainBody>(yield* addDomain(aliceProject, hostname), 201)
        expect(added.ownership.required).toBe(false)
        const verified = expectOk<DomainBody>(yield* verify(aliceProject, hostname))
        expect(verified.status).toBe("verified")
        expect(problemCodes(verified)).toEqual(["wildcard_record"])
        const wildcard = problemOf(verified, "wildcard_record")
        expect(wildcard?.message).toContain(wildcardZone)
        expect(wildcard?.found).toEqual([`*.${wildcardZone}`])
        yield* expectServedFor(hostname, aliceProject)
      })
  )
})
