/**
 * CertificateStore on PostgreSQL: one `certificates` row per hostname, replaced on each save, and
 * saved only while the domain it was issued for is stored verified at the version its order was
 * settled from. The
 * private key is stored only as PrivateKeyCipher's encrypted text, bound to the hostname; reading it
 * back with another secret fails (a `StorageError` saying so) rather than serving a wrong key. The
 * row references its domain, so a certificate can only be kept for a stored domain and goes when the
 * domain is removed.
 */
import { CertificateStore, type StoredCertificate } from "@petstore/certificates"
import { Hostname } from "@petstore/domains"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { storageOperation } from "../internal/storageOperation.js"
import { PrivateKeyCipher } from "../PrivateKeyCipher.js"

/** A `certificates` row as written and selected below, the private key still encrypted. */
const CertificateRow = Schema.Struct({
  hostname: Hostname,
  certificatePem: Schema.String,
  chainPem: Schema.String,
  privateKeyEncrypted: Schema.String,
  notAfter: Schema.Date
})
type CertificateRow = typeof CertificateRow.Type

export const make: Effect.Effect<CertificateStore["Service"], never, SqlClient.SqlClient | PrivateKeyCipher> =
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const cipher = yield* PrivateKeyCipher

    // Only for the domain as its order was settled from, still verified; locked as it is read, so a
    // write of the domain waits for this one (and this one, for a write under way, reads its outcome).
    const upsert = SqlSchema.findAll({
      Request: Schema.Struct({ row: CertificateRow, projectId: Schema.String, version: Schema.Int }),
      Result: Schema.Struct({ hostname: Schema.String }),
      execute: ({ projectId, row, version }) => sql`
      insert into certificates (hostname, certificate_pem, chain_pem, private_key_encrypted, not_after,
        updated_at)
      select ${row.hostname}, ${row.certificatePem}, ${row.chainPem}, ${row.privateKeyEncrypted},
        ${row.notAfter}, now()
      where exists (
        select from custom_domains
        where project_id = ${projectId} and hostname = ${row.hostname} and status = 'verified'
          and version = ${version}
        for share)
      on conflict (hostname) do update set certificate_pem = excluded.certificate_pem,
        chain_pem = excluded.chain_pem, private_key_encrypted = excluded.private_key_encrypted,
        not_after = excluded.not_after, updated_at = excluded.updated_at
      returning hostname`
    })

    const findByHostname = SqlSchema.findOneOption({
      Request: Hostname,
      Result: CertificateRow,
      execute: (hostname) => sql`
      select hostname, certificate_pem as "certificatePem", chain_pem as "chainPem",
        private_key_encrypted as "privateKeyEncrypted", not_after as "notAfter"
      from certificates where hostname = ${hostname}`
    })

    // A domain of the hostname verified again by then has the certificate kept now.
    const remove = SqlSchema.void({
      Request: Hostname,
      execute: (hostname) => sql`
        delete from certificates
        where hostname = ${hostname}
          and not exists (select from custom_domains where hostname = ${hostname} and status = 'verified')`
    })

    const decrypted = (row: CertificateRow) =>
      Effect.map(
        cipher.decrypt(row.privateKeyEncrypted, row.hostname),
        (privateKeyPem): StoredCertificate => ({
          certificatePem: row.certificatePem,
          chainPem: row.chainPem,
          privateKeyPem,
          notAfter: row.notAfter
        })
      )

    return CertificateStore.of({
      save: ({ hostname, projectId, version }, certificate) =>
        cipher.encrypt(certificate.privateKeyPem, hostname).pipe(
          Effect.flatMap((privateKeyEncrypted) =>
            upsert({
              row: {
                hostname,
                certificatePem: certificate.certificatePem,
                chainPem: certificate.chainPem,
                privateKeyEncrypted,
                notAfter: certificate.notAfter
              },
              projectId,
              version
            })
          ),
          Effect.map((kept) => kept.length > 0),
          storageOperation("CertificateStore.save")
        ),
      find: (hostname) =>
        findByHostname(hostname).pipe(
          Effect.flatMap(
            Option.match({ onNone: () => Effect.succeedNone, onSome: (row) => Effect.asSome(decrypted(row)) })
          ),
          storageOperation("CertificateStore.find")
        ),
      remove: (hostname) => remove(hostname).pipe(storageOperation("CertificateStore.remove"))
    })
  })

export const layer: Layer.Layer<CertificateStore, never, SqlClient.SqlClient | PrivateKeyCipher> =
  Layer.effect(CertificateStore, make)
