/**
 * Ports for certificates: the certificate authority that issues them (ACME, RFC 8555; the adapter
 * knows the directory URL, the account key and the challenges) and where issued certificates and
 * their private keys are kept. No implementation here: adapters provide them.
 */

import type { Hostname, OrderRef } from "@petstore/domains"
import type { StorageError } from "@petstore/kernel"
import type { ProjectId } from "@petstore/projects"
import type { Effect, Option, Redacted } from "effect"
import { Context, Schema } from "effect"

/** Where an order stands (RFC 8555 section 7.1.6). */
export const OrderState = Schema.Union([
  /** Authorizations are not yet satisfied. */
  Schema.TaggedStruct("Pending", {}),
  /** Authorized: the CSR can be sent. */
  Schema.TaggedStruct("Ready", {}),
  /** The CSR was sent; the CA is issuing. */
  Schema.TaggedStruct("Processing", {}),
  /** Issued: the certificate, its chain and the private key behind its CSR. */
  Schema.TaggedStruct("Valid", {
    certificatePem: Schema.String,
    chainPem: Schema.String,
    privateKeyPem: Schema.RedactedFromValue(Schema.String),
    notBefore: Schema.DateFromString,
    notAfter: Schema.DateFromString
  }),
  /** The CA gave up on the order; `reason` is its own words (the ACME problem detail). */
  Schema.TaggedStruct("Invalid", { reason: Schema.String })
])
export type OrderState = typeof OrderState.Type

/** The CA could not be reached or refused the request itself (not an order that became invalid). */
export class CertificateIssuerError extends Schema.TaggedError<CertificateIssuerError>()(
  "CertificateIssuerError",
  { message: Schema.String }
) {}

export class CertificateIssuer extends Context.Service<
  CertificateIssuer,
  {
    /** Opens an order for `hostname` and starts its challenge. */
    readonly startOrder: (hostname: Hostname) => Effect.Effect<OrderRef, CertificateIssuerError>
    /**
     * Where the order stands now; moves it on (sends the CSR) once it is ready. An order this issuer
     * can no longer complete (its key was lost in a restart) fails: the caller starts a new one.
     */
    readonly pollOrder: (order: OrderRef) => Effect.Effect<OrderState, CertificateIssuerError>
  }
>()("@petstore/certificates/CertificateIssuer") {}

/**
 * An issued certificate with its chain and private key, as served. Stores keep the private key
 * encrypted at rest; `Redacted` keeps it out of logs.
 */
export interface StoredCertificate {
  readonly certificatePem: string
  readonly chainPem: string
  readonly privateKeyPem: Redacted.Redacted<string>
  readonly notAfter: Date
}

/** The domain a certificate was issued for, as the order was settled from it. */
export interface CertificateHolder {
  readonly projectId: ProjectId
  readonly hostname: Hostname
  /** The stored domain's version then (see `StoredVersion`). */
  readonly version: number
}

export class CertificateStore extends Context.Service<
  CertificateStore,
  {
    /**
     * Keeps `certificate` for the hostname of `issuedFor` (replacing any kept for it) only while that
     * domain is stored verified at `issuedFor.version`, the state its order was settled from: false,
     * and nothing kept, when it changed meanwhile (another account took the name, it was removed).
     */
    readonly save: (
      issuedFor: CertificateHolder,
      certificate: StoredCertificate
    ) => Effect.Effect<boolean, StorageError>
    readonly find: (hostname: Hostname) => Effect.Effect<Option.Option<StoredCertificate>, StorageError>
    /**
     * Forgets the certificate of a removed verified domain, unless a domain with its hostname is
     * verified again by then (the certificate kept is that one's).
     */
    readonly remove: (hostname: Hostname) => Effect.Effect<void, StorageError>
  }
>()("@petstore/certificates/CertificateStore") {}
