/**
 * A custom domain of a project: the DNS record its owner must create, where its verification
 * stands, the ownership record that proves whose it is, and its certificate. `account`, `issuance`
 * (the certificate order) and `version` are the service's own bookkeeping, never shown to owners:
 * `CustomDomainResource` is the public shape.
 */
import { AccountName, StoredVersion, Timestamp } from "@petstore/kernel"
import { ProjectId } from "@petstore/projects"
import { Schema } from "effect"
import { Hostname, HostnameKind } from "./Hostname.js"
import { OwnershipRecord } from "./OwnershipRecord.js"
import { Problem } from "./Problem.js"
import { validatingConstructor } from "./ValidatingConstructor.js"

/** The TTL we ask owners to set. Another TTL is not a failure. */
export const instructedTtl = 3600

export const CustomDomainStatus = Schema.Literals(["pending", "verified", "failed"])
export type CustomDomainStatus = typeof CustomDomainStatus.Type

// A class's struct carries its identifier too: JSON Schema names a class by its encoded side.
export class DnsRecordInstruction extends Schema.Class<DnsRecordInstruction>("DnsRecord")(
  Schema.Struct({
    /** `ALIAS` at an apex; providers that call it `ANAME` accept the same record. */
    type: Schema.Literals(["CNAME", "ALIAS"]),
    name: Schema.String,
    value: Schema.String,
    ttl: Schema.Literal(instructedTtl)
  }).annotate({ identifier: "DnsRecord" })
) {}

export class Verification extends Schema.Class<Verification>("Verification")(
  Schema.Struct({
    lastCheckedAt: Schema.NullOr(Timestamp),
    nextCheckAt: Schema.NullOr(Timestamp),
    /** 48 hours after the domain was added or Verify was last clicked. */
    deadline: Timestamp,
    problems: Schema.Array(Problem)
  }).annotate({ identifier: "Verification" })
) {}

/** `new Verification(props)`, with the same checks (see ValidatingConstructor). */
export const makeVerification = validatingConstructor(Verification)

export const CertificateStatus = Schema.Literals(["none", "pending", "issued", "delayed", "failed"])
export type CertificateStatus = typeof CertificateStatus.Type

export class Certificate extends Schema.Class<Certificate>("Certificate")(
  Schema.Struct({
    status: CertificateStatus,
    issuedAt: Schema.NullOr(Timestamp),
    expiresAt: Schema.NullOr(Timestamp),
    problems: Schema.Array(Problem)
  }).annotate({ identifier: "Certificate" })
) {}

/** `new Certificate(props)`, with the same checks (see ValidatingConstructor). */
export const makeCertificate = validatingConstructor(Certificate)

/** The CA's handle on an order (for ACME, the order URL). */
export const OrderRef = Schema.String.pipe(Schema.brand("OrderRef"))
export type OrderRef = typeof OrderRef.Type

/** Where the work on a certificate stands: internal, for the worker that drives the CA. */
export class Issuance extends Schema.Class<Issuance>("Issuance")(
  Schema.Struct({
    /** When this certificate was asked for (verification, Re-verify or renewal): the 30 minutes count from here. */
    requestedAt: Timestamp,
    /** The CA's order, once one is open. */
    order: Schema.NullOr(OrderRef),
    /** When the worker looks at this certificate next; null: nothing to do until the owner acts. */
    nextAttemptAt: Schema.NullOr(Timestamp),
    /** Attempts since the last progress, for the backoff. */
    attempts: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
  }).annotate({ identifier: "Issuance" })
) {}

/** `new Issuance(props)`, with the same checks (see ValidatingConstructor). */
export const makeIssuance = validatingConstructor(Issuance)

const domainFields = {
  hostname: Hostname,
  projectId: ProjectId,
  kind: HostnameKind,
  status: CustomDomainStatus,
  dnsRecord: DnsRecordInstruction,
  /** The TXT record that proves the account owns the hostname, and whether verification needs it now. */
  ownership: OwnershipRecord,
  verification: Verification,
  certificate: Certificate,
  createdAt: Timestamp
}

export class CustomDomain extends Schema.Class<CustomDomain>("CustomDomain")(
  Schema.Struct({
    ...domainFields,
    /** The account the project belongs to: the one whose ownership token the record carries. */
    account: AccountName,
    /** Null until the domain verifies. */
    issuance: Schema.NullOr(Issuance),
    /**
     * The stored domain's write count, as read: every write is conditional on it (see
     * `CustomDomainRepository`), so a decision taken from an older state never lands on a newer one.
     */
    version: StoredVersion
  }).annotate({ identifier: "CustomDomain" })
) {}

/** `new CustomDomain(props)`, with the same checks (see ValidatingConstructor). */
export const makeCustomDomain = validatingConstructor(CustomDomain)

/** A domain as its owner sees it (contract section 3, `Domain`): without the internal `issuance`. */
export const CustomDomainResource = Schema.Struct(domainFields).annotate({ identifier: "Domain" })
export type CustomDomainResource = typeof CustomDomainResource.Type

/** When the worker next has something to do for `domain`: a verification check or certificate work. */
export const workDueAt = (domain: CustomDomain): Date | null => {
  const times = [domain.verification.nextCheckAt, domain.issuance?.nextAttemptAt ?? null].filter(
    (time): time is Date => time !== null
  )
  return times.length === 0 ? null : new Date(Math.min(...times.map((time) => time.getTime())))
}

/** Whether `domain`'s verification check is due at `now` (epoch milliseconds). */
export const isCheckDue = (domain: CustomDomain, now: number): boolean => {
  const { nextCheckAt } = domain.verification
  return nextCheckAt !== null && nextCheckAt.getTime() <= now
}

/** The record the owner must create: CNAME for a subdomain, ALIAS (or ANAME) at an apex. */
export const dnsInstruction = (
  hostname: Hostname,
  kind: HostnameKind,
  target: string
): DnsRecordInstruction =>
  new DnsRecordInstruction({
    type: kind === "apex" ? "ALIAS" : "CNAME",
    name: hostname,
    value: target,
    ttl: instructedTtl
  })

/** The two names of a stored domain: a hostname is in at most one project per account. */
export interface CustomDomainKey {
  readonly projectId: ProjectId
  readonly hostname: Hostname
}
