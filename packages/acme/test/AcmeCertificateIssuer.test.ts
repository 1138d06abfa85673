/**
 * The ACME adapter against a real Pebble on loopback: an order whose HTTP-01 challenge is served ends
 * Valid with a certificate for the hostname; one whose challenge is not served ends Invalid.
 */

import { describe, expect, layer } from "@effect/vitest"
import { Hostname, type OrderRef, type OrderState } from "@petstore/domain"
import * as acme from "acme-client"
import { Duration, Effect, Layer, Option, Redacted, Schedule } from "effect"
import { AcmeCertificateIssuer, Http01ChallengeStore } from "../src/index.js"
import { TestPebble, testPebbleLayer } from "./support/TestPebble.js"

/** Polls until the order is Valid or Invalid, for at most 30 s. */
const pollToEnd = (issuer: AcmeCertificateIssuer.AcmeCertificateIssuer["Type"], order: OrderRef) =>
  issuer.pollOrder(order).pipe(
    Effect.filterOrFail(
      (state: OrderState) => state._tag === "Valid" || state._tag === "Invalid",
      (state) => ({ _tag: "NotYet" as const, state })
    ),
    Effect.retry({
      schedule: Schedule.spaced(Duration.millis(200)).pipe(Schedule.upTo(Duration.seconds(30))),
      while: (error) => error._tag === "NotYet"
    }),
    Effect.mapError((error) =>
      error._tag === "NotYet" ? new Error(`order still ${error.state._tag} after 30 s`) : error
    )
  )

/** An issuer publishing its challenges in `store`. */
const issuerWith = (directoryUrl: string, store: Http01ChallengeStore.Http01ChallengeStore["Type"]) =>
  AcmeCertificateIssuer.make({ directoryUrl, email: "certs@example.com" }).pipe(
    Effect.provide(Layer.succeed(Http01ChallengeStore.Http01ChallengeStore, store))
  )

layer(testPebbleLayer, { excludeTestServices: true, timeout: "60 seconds" })(
  "AcmeCertificateIssuer on Pebble",
  (it) => {
    describe("an order whose challenge is served", () => {
      it.effect(
        "ends Valid with a certificate for the hostname",
        () =>
          Effect.gen(function* () {
            const pebble = yield* TestPebble
            const hostname = Hostname.make("shop.served.test")
            yield* pebble.challtestsrv.addA(hostname, ["127.0.0.1"])
            const issuer = yield* issuerWith(pebble.directoryUrl, pebble.servedStore)

            const order = yield* issuer.startOrder(hostname)
            expect(order).toMatch(/^https:\/\/127\.0\.0\.1:\d+\//)
            const state = yield* pollToEnd(issuer, order)

            if (state._tag !== "Valid") throw new Error(`expected Valid, got ${JSON.stringify(state)}`)
            const info = acme.crypto.readCertificateInfo(state.certificatePem)
            expect(info.domains.altNames).toEqual([hostname])
            expect(state.notAfter.getTime()).toBeGreaterThan(Date.now())
            expect(state.notBefore.getTime()).toBeLessThan(state.notAfter.getTime())
            expect(state.chainPem).toContain("-----BEGIN CERTIFICATE-----")
            expect(state.certificatePem).not.toContain(state.chainPem)

            const key = yield* issuer.privateKey(order)
            expect(Option.map(key, Redacted.value).pipe(Option.getOrElse(() => ""))).toContain("PRIVATE KEY")
            expect(String(Option.getOrThrow(key))).not.toContain("PRIVATE KEY")
          }),
        { timeout: 45_000 }
      )
    })

    describe("an order whose challenge is not served", () => {
      it.effect(
        "ends Invalid with the CA's reason",
        () =>
          Effect.gen(function* () {
            const pebble = yield* TestPebble
            const hostname = Hostname.make("shop.unserved.test")
            yield* pebble.challtestsrv.addA(hostname, ["127.0.0.1"])
            // Published in a store the HTTP-01 server does not read: Pebble gets a 404.
            const issuer = yield* issuerWith(pebble.directoryUrl, Http01ChallengeStore.makeInMemory())

            const order = yield* issuer.startOrder(hostname)
            const state = yield* pollToEnd(issuer, order)

            if (state._tag !== "Invalid") throw new Error(`expected Invalid, got ${JSON.stringify(state)}`)
            expect(state.reason).toContain(hostname)
            expect(state.reason.length).toBeGreaterThan(hostname.length + 10)
          }),
        { timeout: 45_000 }
      )
    })

    describe("a directory URL the CA does not serve", () => {
      it.effect("fails with a CertificateIssuerError without a stack in its message", () =>
        Effect.gen(function* () {
          const pebble = yield* TestPebble
          const directoryUrl = `${pebble.directoryUrl}-missing`
          const issuer = yield* issuerWith(directoryUrl, Http01ChallengeStore.makeInMemory())
          const error = yield* Effect.flip(issuer.startOrder(Hostname.make("shop.nowhere.test")))
          expect(error._tag).toBe("CertificateIssuerError")
          expect(error.message).toContain(directoryUrl)
          expect(error.message).not.toMatch(/\n\s+at /)
        })
      )
    })
  }
)
