/**
 * CertificateStore in memory: issued certificates by hostname. Nothing is written anywhere, so the
 * private keys need no encryption at rest here (the PostgreSQL store encrypts them).
 */
import { CertificateStore, type StoredCertificate } from "@petstore/custom-domains"
import { Effect, Layer, Option, Ref } from "effect"

export const make: Effect.Effect<CertificateStore["Service"]> = Effect.map(
  Ref.make(new Map<string, StoredCertificate>()),
  (certificates) =>
    CertificateStore.of({
      save: (hostname, certificate) =>
        Ref.update(certificates, (current) => new Map(current).set(hostname, certificate)),
      find: (hostname) =>
        Effect.map(Ref.get(certificates), (current) => Option.fromNullishOr(current.get(hostname))),
      remove: (hostname) =>
        Ref.update(certificates, (current) => {
          const next = new Map(current)
          next.delete(hostname)
          return next
        })
    })
)

export const layer: Layer.Layer<CertificateStore> = Layer.effect(CertificateStore, make)
