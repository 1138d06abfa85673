/**
 * What one DNS question returned, as a value: records, a definite "nothing here" (NXDOMAIN or an
 * empty answer), or a failure to get an answer at all (timeout, SERVFAIL, refused). Verification
 * treats the last one as transient: it never fails a domain by itself.
 */
import { Schema } from "effect"

export const DnsFailureReason = Schema.Literal("timeout", "servfail", "refused", "other")
export type DnsFailureReason = typeof DnsFailureReason.Type

export const DnsRecords = <A, I, R>(record: Schema.Schema<A, I, R>) =>
  Schema.TaggedStruct("Records", { records: Schema.NonEmptyArray(record) })

export const DnsNoRecords = Schema.TaggedStruct("NoRecords", {
  /** `nxdomain`: the name does not exist; `nodata`: it exists without records of this type. */
  reason: Schema.Literal("nxdomain", "nodata")
})

export const DnsFailure = Schema.TaggedStruct("Failure", { reason: DnsFailureReason, detail: Schema.String })

export const DnsAnswer = <A, I, R>(record: Schema.Schema<A, I, R>) =>
  Schema.Union(DnsRecords(record), DnsNoRecords, DnsFailure)

export type DnsAnswer<A> =
  | { readonly _tag: "Records"; readonly records: readonly [A, ...Array<A>] }
  | typeof DnsNoRecords.Type
  | typeof DnsFailure.Type

/** A CAA record (RFC 8659): flags' critical bit, tag and value. */
export class CaaRecord extends Schema.Class<CaaRecord>("CaaRecord")({
  critical: Schema.Boolean,
  tag: Schema.String,
  value: Schema.String
}) {}
