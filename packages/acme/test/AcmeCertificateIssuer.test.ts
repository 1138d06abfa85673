/**
 * The ACME adapter against a real Pebble on loopback: an order whose HTTP-01 challenge is served ends
 * Valid with a certificate for the hostname and the key behind it; one whose challenge is not served
 * ends Invalid; one finalized by another issuer (a process that restarted) fails.
 */
import { createPrivateKey, X509Certificate } from "node:crypto"
import { describe, expect, layer } from "@effect/vitest"
import { type CertificateIssuer, Http01ChallengeStore, type OrderState } from "@petstore/certificates"
import { Hostname, type OrderRef } from "@petstore/domains"
import { StorageError } from "@petstore/kernel"
import { MemoryHttp01ChallengeStore } from "@petstore/store-memory"
import * as acme from "acme-client"
import { Duration, Effect, Layer, Redacted, Schedule } from "effect"
import { AcmeCertificateIssuer } from "../src/index.js"
import { TestPebble, testPebbleLayer } from "./support/TestPebble.js"

/** Polls until the order is Valid or Invalid, for at most 30 s. */
const pollToEnd = (issuer: CertificateIssuer["Service"], order: OrderRef) =>
  issuer.pollOrder(order).pipe(
    Effect.filterOrFail(
      (state: OrderState) => state._tag === "Valid" || state._tag === "Invalid",
      (state) => ({ _tag: "NotYet" as const, state })
    ),
    Effect.retry({
      schedule: Schedule.spaced(Duration.millis(200)).pipe(Schedule.upTo({ duration: Duration.seconds(30) })),
      while: (error) => error._tag === "NotYet"
    }),
    Effect.mapError((error) =>
      error._tag === "NotYet" ? new Error(`order still ${error.state._tag} after 30 s`) : error
    )
  )

/** An issuer publishing its challenges in `store` (on a fresh account, unless its key is given). */
const issuerWith = (directoryUrl: string, store: Http01ChallengeStore["Service"], accountKeyPem?: string) =>
  AcmeCertificateIssuer.make({
    directoryUrl,
    email: "certs@example.com",
    ...(accountKeyPem === undefined ? {} : { accountKeyPem })
  }).pipe(Effect.provide(Layer.succeed(Http01ChallengeStore, store)))

/** An issuer publishing its challenges in a store of its own, which nothing serves. */
const unservedIssuer = (directoryUrl: string) =>
  AcmeCertificateIssuer.make({ directoryUrl, email: "certs@example.com" }).pipe(
    Effect.provide(MemoryHttp01ChallengeStore.layer)
  )

/** Polls until the CA has the CSR (the order left Pending and Ready), for at most 30 s. */
const pollPastReady = (issuer: CertificateIssuer["Service"], order: OrderRef) =>
  issuer.pollOrder(order).pipe(
    Effect.filterOrFail(
      (state: OrderState) => state._tag !== "Pending" && state._tag !== "Ready",
      (state) => ({ _tag: "NotYet" as const, state })
    ),
    Effect.retry({
      schedule: Schedule.spaced(Duration.millis(200)).pipe(Schedule.upTo({ duration: Duration.seconds(30) })),
      while: (error) => error._tag === "NotYet"
    }),
    Effect.mapError((error) =>
      error._tag === "NotYet" ? new Error(`order still ${error.state._tag} after 30 s`) : error
    )
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

            const key = createPrivateKey(Redacted.value(state.privateKeyPem))
            expect(new X509Certificate(state.certificatePem).checkPrivateKey(key)).toBe(true)
            expect(String(state.privateKeyPem)).not.toContain("PRIVATE KEY")

            // Polled again (the caller lost the answer): the same certificate, with its key.
            const again = yield* issuer.pollOrder(order)
            expect(again._tag === "Valid" && again.certificatePem).toBe(state.certificatePem)
            expect(again._tag === "Valid" && Redacted.value(again.privateKeyPem)).toBe(
              Redacted.value(state.privateKeyPem)
            )
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
            const issuer = yield* unservedIssuer(pebble.directoryUrl)

            const order = yield* issuer.startOrder(hostname)
            const state = yield* pollToEnd(issuer, order)

            if (state._tag !== "Invalid") throw new Error(`expected Invalid, got ${JSON.stringify(state)}`)
            expect(state.reason).toContain(hostname)
            expect(state.reason.length).toBeGreaterThan(hostname.length + 10)
          }),
        { timeout: 45_000 }
      )
    })

    describe("an order finalized by another issuer (a restarted process)", () => {
      it.effect(
        "fails with a CertificateIssuerError, once the CA has the CSR",
        () =>
          Effect.gen(function* () {
            const pebble = yield* TestPebble
            const hostname = Hostname.make("shop.restarted.test")
            yield* pebble.challtestsrv.addA(hostname, ["127.0.0.1"])
            // The account survives the restart (its key is configuration); the CSR's key does not.
            const accountKey = (yield* Effect.promise(() => acme.crypto.createPrivateKey())).toString()
            const before = yield* issuerWith(pebble.directoryUrl, pebble.servedStore, accountKey)
            const order = yield* before.startOrder(hostname)
            yield* pollPastReady(before, order)

            const after = yield* issuerWith(pebble.directoryUrl, pebble.servedStore, accountKey)
            const error = yield* Effect.flip(after.pollOrder(order))
            expect(error._tag).toBe("CertificateIssuerError")
            expect(error.message).toContain(order)
            expect(error.message).toContain("start a new order")
          }),
        { timeout: 45_000 }
      )
    })

    describe("a challenge store that fails", () => {
      it.effect("fails the order with a CertificateIssuerError naming the store", () =>
        Effect.gen(function* () {
          const pebble = yield* TestPebble
          const hostname = Hostname.make("shop.storeless.test")
          const failing = Http01ChallengeStore.of({
            put: () => Effect.fail(new StorageError({ operation: "put", cause: new Error("store is down") })),
            remove: () => Effect.void,
            find: () =>
              Effect.fail(new StorageError({ operation: "find", cause: new Error("store is down") }))
          })
          const issuer = yield* issuerWith(pebble.directoryUrl, failing)
          const error = yield* Effect.flip(issuer.startOrder(hostname))
          expect(error._tag).toBe("CertificateIssuerError")
          expect(error.message).toContain("HTTP-01 challenge store")
          expect(error.message).toContain("store is down")
        })
      )
    })

    describe("a directory URL the CA does not serve", () => {
      it.effect("fails with a CertificateIssuerError without a stack in its message", () =>
        Effect.gen(function* () {
          const pebble = yield* TestPebble
          const directoryUrl = `${pebble.directoryUrl}-missing`
          const issuer = yield* unservedIssuer(directoryUrl)
          const error = yield* Effect.flip(issuer.startOrder(Hostname.make("shop.nowhere.test")))
          expect(error._tag).toBe("CertificateIssuerError")
          expect(error.message).toContain(directoryUrl)
          expect(error.message).not.toMatch(/\n\s+at /)
        })
      )
    })
  }
)
