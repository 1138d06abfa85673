/**
 * CertificateStore in memory: issued certificates by hostname, kept in the table the domains are
 * (`MemoryDomainTable`), so that a certificate is saved in the same atomic update that finds its
 * domain still verified at the version its order was settled from. Nothing is written anywhere, so
 * the private keys need no encryption at rest here (the PostgreSQL store encrypts them).
 */
import { CertificateStore } from "@petstore/certificates"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { type DomainTable, keyOf, MemoryDomainTable, layer as tableLayer } from "./MemoryDomainTable.js"

/** Whether a domain with `hostname` is verified in `table`. */
const hasVerified = (table: DomainTable, hostname: string): boolean => {
  for (const stored of HashMap.values(table.domains)) {
    if (stored.domain.hostname === hostname && stored.domain.status === "verified") return true
  }
  return false
}

export const make: Effect.Effect<CertificateStore["Service"], never, MemoryDomainTable> = Effect.map(
  MemoryDomainTable,
  (table) =>
    CertificateStore.of({
      save: (issuedFor, certificate) =>
        Ref.modify(table, (current): [boolean, DomainTable] => {
          const stored = HashMap.get(current.domains, keyOf(issuedFor))
          const asIssued = Option.exists(
            stored,
            ({ domain }) => domain.status === "verified" && domain.version === issuedFor.version
          )
          if (!asIssued) return [false, current]
          return [
            true,
            { ...current, certificates: HashMap.set(current.certificates, issuedFor.hostname, certificate) }
          ]
        }),
      find: (hostname) =>
        Effect.map(Ref.get(table), (current) => HashMap.get(current.certificates, hostname)),
      remove: (hostname) =>
        Ref.update(table, (current) =>
          hasVerified(current, hostname)
            ? current
            : { ...current, certificates: HashMap.remove(current.certificates, hostname) }
        )
    })
)

/** The store on a table of its own: for what needs certificates alone. `MemoryStore` shares its table. */
export const layer: Layer.Layer<CertificateStore> = Layer.effect(CertificateStore, make).pipe(
  Layer.provide(tableLayer)
)
