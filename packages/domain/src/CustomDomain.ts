/**
 * A custom domain of a project: the DNS record its owner must create, where its verification
 * stands, and its certificate.
 */
import { Schema } from "effect"
import { Problem } from "./DomainProblem.js"
import { DomainKind, Hostname } from "./Hostname.js"
import { ProjectId } from "./Project.js"

/** The TTL we ask owners to set. Another TTL is not a failure. */
export const instructedTtl = 3600

export const DomainStatus = Schema.Literal("pending", "verified", "failed")
export type DomainStatus = typeof DomainStatus.Type

export class DnsRecordInstruction extends Schema.Class<DnsRecordInstruction>("DnsRecord")({
  /** `ALIAS` at an apex; providers that call it `ANAME` accept the same record. */
  type: Schema.Literal("CNAME", "ALIAS"),
  name: Schema.String,
  value: Schema.String,
  ttl: Schema.Literal(instructedTtl)
}) {}

export class Verification extends Schema.Class<Verification>("Verification")({
  lastCheckedAt: Schema.NullOr(Schema.Date),
  nextCheckAt: Schema.NullOr(Schema.Date),
  /** 48 hours after the domain was added or Verify was last clicked. */
  deadline: Schema.Date,
  problems: Schema.Array(Problem)
}) {}

export const CertificateStatus = Schema.Literal("none", "pending", "issued", "delayed", "failed")
export type CertificateStatus = typeof CertificateStatus.Type

export class Certificate extends Schema.Class<Certificate>("Certificate")({
  status: CertificateStatus,
  issuedAt: Schema.NullOr(Schema.Date),
  expiresAt: Schema.NullOr(Schema.Date),
  problems: Schema.Array(Problem)
}) {}

export class CustomDomain extends Schema.Class<CustomDomain>("Domain")({
  hostname: Hostname,
  projectId: ProjectId,
  kind: DomainKind,
  status: DomainStatus,
  dnsRecord: DnsRecordInstruction,
  verification: Verification,
  certificate: Certificate,
  createdAt: Schema.Date
}) {}

/** The record the owner must create: CNAME for a subdomain, ALIAS (or ANAME) at an apex. */
export const dnsInstruction = (hostname: Hostname, kind: DomainKind, target: string): DnsRecordInstruction =>
  new DnsRecordInstruction({
    type: kind === "apex" ? "ALIAS" : "CNAME",
    name: hostname,
    value: target,
    ttl: instructedTtl
  })
