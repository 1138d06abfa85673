/**
 * The behaviour every CertificateStore must have, as a test suite run against each adapter. A
 * certificate is kept only for a stored domain verified at the version it was issued for, so each
 * test first stores a project and domain of its own, verified. The private key must come back exactly, and
 * still redacted.
 */
import { describe, expect, layer, type Vitest } from "@effect/vitest"
import { CertificateStore, type StoredCertificate } from "@petstore/certificates"
import { CustomDomainRepository, loseOwnership } from "@petstore/domains"
import { ownershipLostProblem } from "@petstore/ownership"
import { Effect, type Layer, Option, Redacted } from "effect"
import {
  freshCertificate,
  freshHostname,
  later,
  storedDomain,
  t0,
  verifiedStoredDomain
} from "./ContractFixtures.js"
import type { DomainStore } from "./DomainRepositoryContract.js"

export type CertificateStoreStore = CertificateStore | DomainStore

/** Every field as plain values, the private key revealed. */
const fields = (certificate: StoredCertificate) => ({
  certificatePem: certificate.certificatePem,
  chainPem: certificate.chainPem,
  privateKeyPem: Redacted.value(certificate.privateKeyPem),
  notAfter: certificate.notAfter.toISOString()
})

const day = 24 * 3_600_000

export const certificateStoreTests = (it: Vitest.MethodsNonLive<CertificateStoreStore>): void => {
  it.effect("save, then find returns every field, the private key exactly and still redacted", () =>
    Effect.gen(function* () {
      const store = yield* CertificateStore
      const domain = yield* verifiedStoredDomain()
      const certificate = yield* freshCertificate(later(t0, 90 * day + 7))
      expect(yield* store.find(domain.hostname)).toEqual(Option.none())
      expect(yield* store.save(domain, certificate)).toBe(true)

      const found = yield* store.find(domain.hostname)
      expect(Option.map(found, fields)).toEqual(Option.some(fields(certificate)))
      if (Option.isNone(found)) return
      expect(Redacted.isRedacted(found.value.privateKeyPem)).toBe(true)
      expect(String(found.value.privateKeyPem)).not.toContain("PRIVATE KEY")
      expect(JSON.stringify(found.value)).not.toContain("PRIVATE KEY")
    })
  )

  it.effect("a second save replaces the certificate, its chain and its key", () =>
    Effect.gen(function* () {
      const store = yield* CertificateStore
      const domain = yield* verifiedStoredDomain("apex")
      const first = yield* freshCertificate(later(t0, 90 * day))
      const renewed = yield* freshCertificate(later(t0, 150 * day))
      expect(yield* store.save(domain, first)).toBe(true)
      expect(yield* store.save(domain, renewed)).toBe(true)
      expect(Option.map(yield* store.find(domain.hostname), fields)).toEqual(Option.some(fields(renewed)))
    })
  )

  it.effect(
    "a save is refused unless the domain is stored verified at the version it was issued for: nothing kept",
    () =>
      Effect.gen(function* () {
        const store = yield* CertificateStore
        const domains = yield* CustomDomainRepository
        const pending = yield* storedDomain()
        expect(yield* store.save(pending, yield* freshCertificate())).toBe(false)
        expect(yield* store.find(pending.hostname)).toEqual(Option.none())

        const verified = yield* verifiedStoredDomain()
        // The domain changed after its order was settled (another account took the name): refused.
        const lost = loseOwnership(
          verified,
          ownershipLostProblem(verified.hostname, "proved"),
          later(t0, day)
        )
        expect(yield* domains.update(lost)).toBe(true)
        expect(yield* store.save(verified, yield* freshCertificate())).toBe(false)
        expect(yield* store.find(verified.hostname)).toEqual(Option.none())

        // One issued for an older version of a domain verified again: refused too.
        const again = yield* verifiedStoredDomain()
        expect(yield* store.save({ ...again, version: again.version - 1 }, yield* freshCertificate())).toBe(
          false
        )
        expect(yield* store.find(again.hostname)).toEqual(Option.none())

        // And for a domain removed meanwhile.
        const removed = yield* verifiedStoredDomain()
        expect(Option.isSome(yield* domains.remove(removed.projectId, removed.hostname))).toBe(true)
        expect(yield* store.save(removed, yield* freshCertificate())).toBe(false)
        expect(yield* store.find(removed.hostname)).toEqual(Option.none())
      })
  )

  it.effect("certificates are kept per hostname; remove forgets one whose domain is gone", () =>
    Effect.gen(function* () {
      const store = yield* CertificateStore
      const domains = yield* CustomDomainRepository
      const [a, b] = [yield* verifiedStoredDomain(), yield* verifiedStoredDomain()]
      const [forA, forB] = [yield* freshCertificate(), yield* freshCertificate(later(t0, 60 * day))]
      expect(yield* store.save(a, forA)).toBe(true)
      expect(yield* store.save(b, forB)).toBe(true)
      expect(Option.map(yield* store.find(a.hostname), fields)).toEqual(Option.some(fields(forA)))
      expect(Option.map(yield* store.find(b.hostname), fields)).toEqual(Option.some(fields(forB)))
      yield* domains.remove(a.projectId, a.hostname)
      yield* store.remove(a.hostname)
      expect(yield* store.find(a.hostname)).toEqual(Option.none())
      expect(Option.map(yield* store.find(b.hostname), fields)).toEqual(Option.some(fields(forB)))
      // Removing what is not kept is harmless.
      yield* store.remove(a.hostname)
      yield* store.remove(yield* freshHostname())
    })
  )

  it.effect("remove keeps the certificate of a hostname whose domain is verified by then", () =>
    Effect.gen(function* () {
      const store = yield* CertificateStore
      const domain = yield* verifiedStoredDomain()
      const certificate = yield* freshCertificate()
      expect(yield* store.save(domain, certificate)).toBe(true)
      yield* store.remove(domain.hostname)
      expect(Option.map(yield* store.find(domain.hostname), fields)).toEqual(Option.some(fields(certificate)))
    })
  )

  it.effect("an unknown hostname has no certificate", () =>
    Effect.gen(function* () {
      const store = yield* CertificateStore
      expect(yield* store.find(yield* freshHostname())).toEqual(Option.none())
      expect(yield* store.find(yield* freshHostname("apex"))).toEqual(Option.none())
    })
  )
}

/** Runs the suite against one fresh store built from `store`. */
export const certificateStoreContract = <E>(
  name: string,
  store: Layer.Layer<CertificateStoreStore, E>
): void =>
  layer(store, { excludeTestServices: true })(name, (it) =>
    describe("CertificateStore", () => certificateStoreTests(it))
  )
