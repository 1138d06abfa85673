/**
 * What is particular to certificates on PostgreSQL, on a real server and on the embedded PGlite: the
 * private key is stored encrypted (never the PEM), a store with another secret or a key moved to
 * another row cannot read it and says so, and a certificate goes with its domain (the verified one,
 * when several accounts have the hostname).
 */

import type * as PgClient from "@effect/sql-pg/PgClient"
import { expect, layer } from "@effect/vitest"
import { CertificateStore } from "@petstore/certificates"
import { applyVerdict, CustomDomainRepository } from "@petstore/domains"
import { defaultLimits } from "@petstore/kernel"
import { ProjectId, ProjectRepository } from "@petstore/projects"
import { ContractFixtures } from "@petstore/testing"
import { Effect, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { PgCertificateStore, PgMigrations, PgStore, PrivateKeyCipher } from "../src/index.js"
import { bothServers } from "./bothServers.js"

const secret = "test secret for PgCertificateStore, the right one"
const otherSecret = "test secret for PgCertificateStore, another one"

const store = (client: Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, unknown>) =>
  Layer.provideMerge(
    Layer.mergeAll(PgStore.layer, PgStore.certificatesLayer),
    Layer.provideMerge(PgMigrations.layer, client)
  ).pipe(Layer.provide(PrivateKeyCipher.layer(Redacted.make(secret))))

/** The same table read through a store whose cipher has `withSecret`. */
const storeWithSecret = (withSecret: string) =>
  Effect.provide(PgCertificateStore.make, PrivateKeyCipher.layer(Redacted.make(withSecret)))

const encryptedKeyOf = (sql: SqlClient.SqlClient, hostname: string) =>
  sql<{ readonly encrypted: string }>`
    select private_key_encrypted as encrypted from certificates where hostname = ${hostname}`

for (const [name, client] of bothServers) {
  layer(store(client), { excludeTestServices: true, timeout: 120_000 })(
    `PgCertificateStore on ${name}`,
    (it) => {
      it.effect("the stored private key is encrypted text, never the PEM", () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const certificates = yield* CertificateStore
          const domain = yield* ContractFixtures.verifiedStoredDomain()
          const certificate = yield* ContractFixtures.freshCertificate()
          const pem = Redacted.value(certificate.privateKeyPem)
          yield* certificates.save(domain, certificate)

          const [row] = yield* encryptedKeyOf(sql, domain.hostname)
          const encrypted = row?.encrypted ?? ""
          expect(encrypted).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
          expect(encrypted).not.toContain("PRIVATE KEY")
          // Neither the PEM nor its base64 body (nor any line of it) is in the row.
          for (const line of pem.split("\n").filter((text) => text.length > 8)) {
            expect(encrypted).not.toContain(line)
          }
          const everything = yield* sql<{ readonly row: string }>`
          select row_to_json(c)::text as row from certificates c where hostname = ${domain.hostname}`
          expect(everything[0]?.row).toContain(certificate.certificatePem.split("\n")[1])
          for (const line of pem.split("\n").filter((text) => text.length > 8)) {
            expect(everything[0]?.row).not.toContain(line)
          }
          // Saving the same key again encrypts it afresh.
          yield* certificates.save(domain, certificate)
          const [again] = yield* encryptedKeyOf(sql, domain.hostname)
          expect(again?.encrypted).not.toBe(encrypted)
        })
      )

      it.effect(
        "a store with another secret cannot read the key, and says so without revealing anything",
        () =>
          Effect.gen(function* () {
            const certificates = yield* CertificateStore
            const domain = yield* ContractFixtures.verifiedStoredDomain()
            const certificate = yield* ContractFixtures.freshCertificate()
            const pem = Redacted.value(certificate.privateKeyPem)
            yield* certificates.save(domain, certificate)

            const other = yield* storeWithSecret(otherSecret)
            const error = yield* Effect.flip(other.find(domain.hostname))
            expect(error._tag).toBe("StorageError")
            expect(error.operation).toBe("CertificateStore.find")
            expect(error.message).toBe(
              "CertificateStore.find failed: The stored private key cannot be decrypted: it was encrypted " +
                "with another secret, for another hostname, or altered (check the configured secret)"
            )
            const described = `${error.message} ${JSON.stringify(error)} ${String(error)}`
            for (const leaked of [
              secret,
              otherSecret,
              "PRIVATE KEY",
              ...pem.split("\n").filter((l) => l.length > 8)
            ]) {
              expect(described).not.toContain(leaked)
            }
            // An unknown hostname is still simply none; the right secret still reads the key.
            expect(yield* other.find(yield* ContractFixtures.freshHostname())).toEqual(Option.none())
            const same = yield* storeWithSecret(secret)
            const found = yield* same.find(domain.hostname)
            expect(Option.map(found, (stored) => Redacted.value(stored.privateKeyPem))).toEqual(
              Option.some(pem)
            )
          })
      )

      it.effect("a key copied into another hostname's row does not decrypt there", () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const certificates = yield* CertificateStore
          const [a, b] = [
            yield* ContractFixtures.verifiedStoredDomain(),
            yield* ContractFixtures.verifiedStoredDomain()
          ]
          yield* certificates.save(a, yield* ContractFixtures.freshCertificate())
          yield* certificates.save(b, yield* ContractFixtures.freshCertificate())
          yield* sql`
          update certificates set private_key_encrypted =
            (select private_key_encrypted from certificates where hostname = ${a.hostname})
          where hostname = ${b.hostname}`
          const error = yield* Effect.flip(certificates.find(b.hostname))
          expect(error.message).toContain("cannot be decrypted")
          expect(Option.isSome(yield* certificates.find(a.hostname))).toBe(true)
        })
      )

      it.effect("removing a domain, or its project, removes its certificate", () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const certificates = yield* CertificateStore
          const domains = yield* CustomDomainRepository
          const domain = yield* ContractFixtures.verifiedStoredDomain()
          yield* certificates.save(domain, yield* ContractFixtures.freshCertificate())
          expect(Option.isSome(yield* domains.remove(domain.projectId, domain.hostname))).toBe(true)
          expect(yield* certificates.find(domain.hostname)).toEqual(Option.none())
          // Added again, the hostname starts without a certificate.
          yield* domains.insert(domain, defaultLimits)
          expect(yield* certificates.find(domain.hostname)).toEqual(Option.none())

          // A removed project takes its domains, and so their certificates.
          const other = yield* ContractFixtures.verifiedStoredDomain()
          expect(yield* certificates.save(other, yield* ContractFixtures.freshCertificate())).toBe(true)
          yield* sql`delete from projects where id = ${other.projectId}`
          expect(yield* certificates.find(other.hostname)).toEqual(Option.none())
        })
      )

      it.effect(
        "accounts sharing a hostname: the certificate goes with the verified domain, not a contender",
        () =>
          Effect.gen(function* () {
            const certificates = yield* CertificateStore
            const domains = yield* CustomDomainRepository
            const projects = yield* ProjectRepository
            const hostname = yield* ContractFixtures.freshHostname()
            const [owner, contender] = [
              yield* ContractFixtures.freshProject(),
              yield* ContractFixtures.freshProject()
            ]
            yield* Effect.forEach([owner, contender], (project) => projects.insert(project, defaultLimits))
            const verified = applyVerdict(
              yield* ContractFixtures.newDomainOf(owner, hostname),
              { _tag: "Verified", problems: [] },
              ContractFixtures.t0
            )
            yield* domains.insert(verified, defaultLimits)
            yield* domains.insert(
              yield* ContractFixtures.newDomainOf(contender, hostname, ContractFixtures.t0, true),
              defaultLimits
            )
            expect(yield* certificates.save(verified, yield* ContractFixtures.freshCertificate())).toBe(true)

            expect(Option.isSome(yield* domains.remove(contender.id, hostname))).toBe(true)
            expect(Option.isSome(yield* certificates.find(hostname))).toBe(true)
            yield* domains.insert(
              yield* ContractFixtures.newDomainOf(contender, hostname, ContractFixtures.t0, true),
              defaultLimits
            )
            expect(Option.isSome(yield* domains.remove(owner.id, hostname))).toBe(true)
            expect(yield* certificates.find(hostname)).toEqual(Option.none())
          })
      )

      it.effect("a certificate for a hostname that is not a stored domain is not kept", () =>
        Effect.gen(function* () {
          const certificates = yield* CertificateStore
          const hostname = yield* ContractFixtures.freshHostname()
          const nobody = { projectId: ProjectId.make("nobody"), hostname, version: 0 }
          expect(yield* certificates.save(nobody, yield* ContractFixtures.freshCertificate())).toBe(false)
          expect(yield* certificates.find(hostname)).toEqual(Option.none())
        })
      )
    }
  )
}
