/**
 * The behaviour every CertificateStore must have, as a test suite run against each adapter. A
 * certificate belongs to a stored domain (PostgreSQL refuses one for an unknown hostname), so each
 * test first stores a project and domain of its own. The private key must come back exactly, and
 * still redacted.
 */
import { describe, expect, layer, type Vitest } from "@effect/vitest"
import { CertificateStore, type StoredCertificate } from "@petstore/custom-domains"
import { Effect, type Layer, Option, Redacted } from "effect"
import { freshCertificate, freshHostname, later, storedDomain, t0 } from "./ContractFixtures.js"
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
      const domain = yield* storedDomain()
      const certificate = yield* freshCertificate(later(t0, 90 * day + 7))
      expect(yield* store.find(domain.hostname)).toEqual(Option.none())
      yield* store.save(domain.hostname, certificate)

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
      const domain = yield* storedDomain("apex")
      const first = yield* freshCertificate(later(t0, 90 * day))
      const renewed = yield* freshCertificate(later(t0, 150 * day))
      yield* store.save(domain.hostname, first)
      yield* store.save(domain.hostname, renewed)
      expect(Option.map(yield* store.find(domain.hostname), fields)).toEqual(Option.some(fields(renewed)))
    })
  )

  it.effect("certificates are kept per hostname", () =>
    Effect.gen(function* () {
      const store = yield* CertificateStore
      const [a, b] = [yield* storedDomain(), yield* storedDomain()]
      const [forA, forB] = [yield* freshCertificate(), yield* freshCertificate(later(t0, 60 * day))]
      yield* store.save(a.hostname, forA)
      yield* store.save(b.hostname, forB)
      expect(Option.map(yield* store.find(a.hostname), fields)).toEqual(Option.some(fields(forA)))
      expect(Option.map(yield* store.find(b.hostname), fields)).toEqual(Option.some(fields(forB)))
      yield* store.remove(a.hostname)
      expect(yield* store.find(a.hostname)).toEqual(Option.none())
      expect(Option.map(yield* store.find(b.hostname), fields)).toEqual(Option.some(fields(forB)))
    })
  )

  it.effect("remove forgets the certificate; removing what is not kept is harmless", () =>
    Effect.gen(function* () {
      const store = yield* CertificateStore
      const domain = yield* storedDomain()
      yield* store.save(domain.hostname, yield* freshCertificate())
      yield* store.remove(domain.hostname)
      expect(yield* store.find(domain.hostname)).toEqual(Option.none())
      yield* store.remove(domain.hostname)
      yield* store.remove(yield* freshHostname())
      // Saved again after removal: kept again.
      const again = yield* freshCertificate()
      yield* store.save(domain.hostname, again)
      expect(Option.map(yield* store.find(domain.hostname), fields)).toEqual(Option.some(fields(again)))
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
