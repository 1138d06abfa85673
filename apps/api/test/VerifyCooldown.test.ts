/**
 * Verify's cool-down (contract section 9) through the BUILT API process, its window set by
 * `PETSTORE_VERIFY_COOLDOWN` (3 seconds here, so that the test waits it out), DNS answered by
 * pebble-challtestsrv: within the window of the last check of a domain (the worker's, here) or a
 * claim (a Verify's), Verify answers that check although DNS has changed; once it has passed, Verify
 * checks again. `lastCheckedAt` says when the window started.
 */
import { afterAll, expect, layer } from "@effect/vitest"
import { Challtestsrv, challtestsrvLayer } from "@petstore/dns/testing"
import { Effect, Layer } from "effect"
import { cleanUp } from "./support/ApiProcess.js"
import { builtApiLayer, processPlatform } from "./support/BuiltApiServer.js"
import {
  addDomain,
  type ClaimBody,
  createClaim,
  type DomainBody,
  domainOnce,
  expectOk,
  problemCodes,
  readyProject,
  verify,
  verifyClaim
} from "./support/DomainFlow.js"

afterAll(cleanUp)

const cooldownMillis = 3_000
const project = "cooled-docs"

/** Waits until `millis` after `since` (an ISO time of the process's clock, the machine's). */
const waitUntilAfter = (since: string | null, millis: number) =>
  Effect.promise(
    () =>
      new Promise<void>((resolve) => {
        const left = new Date(since ?? 0).getTime() + millis - Date.now()
        setTimeout(resolve, Math.max(0, left) + 50)
      })
  )

const cooledApi = Layer.unwrap(
  Effect.map(Challtestsrv, (dns) =>
    builtApiLayer(dns.server, { PETSTORE_VERIFY_COOLDOWN: `${cooldownMillis / 1000} seconds` })
  )
)

// One pebble-challtestsrv for the whole file (see CustomDomainsFlow.test.ts).
layer(challtestsrvLayer, { timeout: 30_000, excludeTestServices: true })("Verify's cool-down", (it) => {
  it.layer(cooledApi, { timeout: 60_000 })("through the built API process", (it) => {
    it.effect("a domain: the worker's check answers Verify until the window has passed", () =>
      Effect.gen(function* () {
        const dns = yield* Challtestsrv
        const hostname = "docs.cooled-down.com"
        yield* readyProject(project)
        expectOk(yield* addDomain(project, hostname), 201)
        // The worker checks a new domain at once: nothing at the name yet.
        const checked = yield* domainOnce(
          project,
          hostname,
          (domain) => domain.verification.lastCheckedAt !== null
        )
        expect(checked.status).toBe("pending")
        expect(problemCodes(checked)).toStrictEqual(["record_not_found"])

        // The record is created; a Verify within the window answers the worker's check.
        yield* dns.setCname(hostname, processPlatform.cnameTarget)
        const within = expectOk<DomainBody>(yield* verify(project, hostname))
        const checkedAt = checked.verification.lastCheckedAt
        // The Verify came well within the window (the test is built for it; a machine that slow fails it).
        expect(Date.now()).toBeLessThan(new Date(checkedAt ?? 0).getTime() + cooldownMillis)
        expect(within.status).toBe("pending")
        expect(within.verification.lastCheckedAt).toBe(checkedAt)
        expect(problemCodes(within)).toStrictEqual(["record_not_found"])

        yield* waitUntilAfter(within.verification.lastCheckedAt, cooldownMillis)
        const after = expectOk<DomainBody>(yield* verify(project, hostname))
        expect(after.status).toBe("verified")
        expect(new Date(after.verification.lastCheckedAt ?? 0).getTime()).toBeGreaterThanOrEqual(
          new Date(checkedAt ?? 0).getTime() + cooldownMillis
        )
      })
    )

    it.effect("a claim: its last lookup answers Verify until the window has passed", () =>
      Effect.gen(function* () {
        const dns = yield* Challtestsrv
        const apex = "cooled-claim.com"
        const claim = expectOk<ClaimBody>(yield* createClaim(apex), 201)
        expect(claim.lastCheckedAt).toBeNull()
        const first = expectOk<ClaimBody>(yield* verifyClaim(apex))
        expect(first.status).toBe("pending")
        expect(first.lastCheckedAt).not.toBeNull()

        yield* dns.setTxt(claim.txt.name, claim.txt.value)
        const within = expectOk<ClaimBody>(yield* verifyClaim(apex))
        expect(Date.now()).toBeLessThan(new Date(first.lastCheckedAt ?? 0).getTime() + cooldownMillis)
        expect(within).toStrictEqual(first)

        yield* waitUntilAfter(first.lastCheckedAt, cooldownMillis)
        const after = expectOk<ClaimBody>(yield* verifyClaim(apex))
        expect(after.status).toBe("verified")
        expect(after.lastCheckedAt).not.toBe(first.lastCheckedAt)
      })
    )
  })
})
