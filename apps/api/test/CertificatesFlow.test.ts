/**
 * Certificates end to end against a real ACME CA (contract section 3, "Certificates"): the API server,
 * the worker loop and the serving edge on one fresh PostgreSQL database; Pebble validating HTTP-01 on
 * the edge's HTTP port and resolving names through pebble-challtestsrv, which the tests' DNS adapter
 * asks too. A domain verifies, the worker orders, the edge answers the challenge, Pebble issues, and
 * the edge serves the hostname over HTTPS to a client trusting only Pebble's root; a redirect domain
 * answers 301; removal makes the edge refuse the name. CAA forbidding the CA shows in the pending
 * certificate's problems at once and the certificate is delayed 30 minutes (of the adjustable clock)
 * later; a CNAME removed after verification is diagnosed then too.
 */
import { describe, expect, layer } from "@effect/vitest"
import { AcmeCertificateIssuer } from "@petstore/acme"
import { TestPebble, testPebbleLayerWith } from "@petstore/acme/testing"
import { Challtestsrv, challtestsrvLayer } from "@petstore/dns/testing"
import { EdgeServer } from "@petstore/edge"
import * as EdgeClient from "@petstore/edge/testing"
import { testPlatform } from "@petstore/http/testing"
import { LoopbackServer } from "@petstore/testing"
import { Effect, Layer } from "effect"
import { ClockControl } from "./support/AdjustableClock.js"
import {
  addDomain,
  certificateProblemCodes,
  type DomainBody,
  domainOnce,
  domainPath,
  expectOk,
  flowLayer,
  putConfig,
  readyProject,
  reverify,
  send,
  verify
} from "./support/DomainFlow.js"

/** Pebble, validating on the edge's HTTP port, and the flow (server, worker, edge) ordering from it. */
const pebbleFlow = Layer.unwrap(
  Effect.map(LoopbackServer.freePort, (edgeHttpPort) => {
    const issuer = Layer.unwrap(
      Effect.map(TestPebble, (ca) => AcmeCertificateIssuer.layer({ directoryUrl: ca.directoryUrl }))
    )
    // Provided from outside the flow's fresh build: one Pebble, the one the tests read roots from.
    return flowLayer({ issuer, edgeHttpPort }).pipe(
      Layer.provideMerge(testPebbleLayerWith({ httpPort: edgeHttpPort }))
    )
  })
)

/** DNS as an owner who followed the instructions has it; the target resolves to the edge (loopback). */
const pointAtPlatform = (hostname: string) =>
  Effect.gen(function* () {
    const dns = yield* Challtestsrv
    yield* dns.setCname(hostname, testPlatform.cnameTarget)
    // Pebble resolves the name through the CNAME to the target, where the edge listens (loopback).
    yield* dns.addA(testPlatform.cnameTarget, ["127.0.0.1"])
  })

const certificateIs = (status: string) => (domain: DomainBody) => domain.certificate.status === status

const httpsPort = Effect.map(EdgeServer.EdgeAddresses, (addresses) => addresses.https.port)

layer(challtestsrvLayer, { timeout: 60_000, excludeTestServices: true })("certificates end to end", (it) => {
  it.layer(pebbleFlow, { timeout: 120_000 })("with Pebble", (it) => {
    describe("issuance and serving", () => {
      it.effect(
        "a verified domain gets a certificate from Pebble and is served over HTTPS with it; a redirect domain answers 301; removal refuses the name",
        () =>
          Effect.gen(function* () {
            const pebble = yield* TestPebble
            yield* readyProject("manual")
            yield* pointAtPlatform("docs.example.com")
            yield* pointAtPlatform("www.example.com")
            expectOk(yield* addDomain("manual", "docs.example.com"), 201)
            expectOk(yield* addDomain("manual", "www.example.com"), 201)
            const verified = expectOk<DomainBody>(yield* verify("manual", "docs.example.com"))
            expect(verified.status).toBe("verified")
            expect(verified.certificate.status).toBe("pending")
            expectOk(yield* verify("manual", "www.example.com"))

            const issued = yield* domainOnce(
              "manual",
              "docs.example.com",
              certificateIs("issued"),
              "60 seconds"
            )
            expect(issued.certificate.problems).toEqual([])
            const issuedAt = Date.parse(String((issued.certificate as { issuedAt?: string }).issuedAt))
            const expiresAt = Date.parse(String((issued.certificate as { expiresAt?: string }).expiresAt))
            expect(expiresAt).toBeGreaterThan(issuedAt)
            yield* domainOnce("manual", "www.example.com", certificateIs("issued"), "60 seconds")

            const port = yield* httpsPort
            const root = yield* pebble.issuingRootPem
            const page = yield* EdgeClient.https(port, {
              host: "docs.example.com",
              path: "/guide/",
              ca: root
            })
            expect(page.status).toBe(200)
            expect(page.headers["content-type"]).toMatch(/^text\/html/)
            expect(page.body).toContain("manual")

            expectOk(
              yield* putConfig("manual", {
                primary: "docs.example.com",
                redirects: [{ from: "www.example.com", to: "docs.example.com", status: 301 }]
              })
            )
            const redirect = yield* EdgeClient.https(port, {
              host: "www.example.com",
              path: "/guide/start?lang=en",
              ca: root
            })
            expect(redirect.status).toBe(301)
            expect(redirect.headers.location).toBe("https://docs.example.com/guide/start?lang=en")

            const removed = yield* send("DELETE", domainPath("manual", "docs.example.com"))
            expect(removed.status).toBe(204)
            const refused = yield* EdgeClient.handshake(port, root, "docs.example.com")
            expect(refused._tag).toBe("Refused")
          }),
        120_000
      )
    })

    describe("the 30-minute diagnosis", () => {
      it.effect(
        "CAA forbidding the CA: delayed with caa_blocks_issuer naming the record; removed + Re-verify: issued",
        () =>
          Effect.gen(function* () {
            const dns = yield* Challtestsrv
            const clock = yield* ClockControl
            yield* readyProject("caa")
            yield* pointAtPlatform("docs.caa-blocked.com")
            yield* dns.addCaa("caa-blocked.com", [{ tag: "issue", value: "other-ca.example" }])
            expectOk(yield* addDomain("caa", "docs.caa-blocked.com"), 201)
            expect(expectOk<DomainBody>(yield* verify("caa", "docs.caa-blocked.com")).status).toBe("verified")

            // Not delayed before 30 minutes: still pending, what stands in the way shown already (section 6).
            yield* clock.advance("29 minutes")
            yield* Effect.sleep("1 second")
            const early = yield* domainOnce("caa", "docs.caa-blocked.com", () => true)
            expect(early.certificate.status).toBe("pending")
            expect(certificateProblemCodes(early)).toEqual(["caa_blocks_issuer"])

            yield* clock.advance("2 minutes")
            const delayed = yield* domainOnce("caa", "docs.caa-blocked.com", certificateIs("delayed"))
            expect(certificateProblemCodes(delayed)).toEqual(["caa_blocks_issuer"])
            expect(delayed.certificate.problems[0]?.found).toEqual(['0 issue "other-ca.example"'])
            expect(delayed.certificate.problems[0]?.message).toContain("caa-blocked.com")
            expect(delayed.certificate.problems[0]?.message).toContain("letsencrypt.org")

            yield* dns.clearCaa("caa-blocked.com")
            const restarted = expectOk<DomainBody>(yield* reverify("caa", "docs.caa-blocked.com"))
            expect(restarted.certificate.status).toBe("pending")
            expect(restarted.certificate.problems).toEqual([])
            yield* domainOnce("caa", "docs.caa-blocked.com", certificateIs("issued"), "60 seconds")
          }),
        120_000
      )

      it.effect("a CNAME removed after verification: delayed with domain_no_longer_verifies", () =>
        Effect.gen(function* () {
          const dns = yield* Challtestsrv
          const clock = yield* ClockControl
          yield* readyProject("moved")
          yield* pointAtPlatform("docs.moved.net")
          // CAA holds the order back until the CNAME is gone, so the certificate cannot come first.
          yield* dns.addCaa("moved.net", [{ tag: "issue", value: "other-ca.example" }])
          expectOk(yield* addDomain("moved", "docs.moved.net"), 201)
          expect(expectOk<DomainBody>(yield* verify("moved", "docs.moved.net")).status).toBe("verified")
          // The owner replaced the CNAME by an address record of another host.
          yield* dns.clearCname("docs.moved.net")
          yield* dns.addA("docs.moved.net", ["198.51.100.7"])
          yield* dns.clearCaa("moved.net")

          yield* clock.advance("31 minutes")
          const delayed = yield* domainOnce("moved", "docs.moved.net", certificateIs("delayed"))
          expect(delayed.status).toBe("verified")
          expect(certificateProblemCodes(delayed)).toEqual(["domain_no_longer_verifies"])
          expect(delayed.certificate.problems[0]?.found).toEqual(["A 198.51.100.7"])

          const refused = yield* reverify("moved", "docs.moved.net")
          expect(refused.status).toBe(200)
          expect((refused.body as DomainBody).status).not.toBe("verified")
        })
      )
    })
  })
})
