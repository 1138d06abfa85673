/**
 * What one DNS question returned, as a value: records, a definite "nothing here" (NXDOMAIN or an
 * empty answer), or a failure to get an answer at all (timeout, SERVFAIL, refused). Verification
 * treats the last one as transient: it never fails a domain by itself.
 */
import { Schema } from "effect"

export const DnsFailureReason = Schema.Literals(["timeout", "servfail", "refused", "other"])
export type DnsFailureReason = typeof DnsFailureReason.Type

export const DnsRecords = <S extends Schema.Top>(record: S) =>
  Schema.TaggedStruct("Records", { records: Schema.NonEmptyArray(record) })

export const DnsNoRecords = Schema.TaggedStruct("NoRecords", {
  /** `nxdomain`: the name does not exist; `nodata`: it exists without records of this type. */
  reason: Schema.Literals(["nxdomain", "nodata"])
})

export const DnsFailure = Schema.TaggedStruct("Failure", { reason: DnsFailureReason, detail: Schema.String })

export const DnsAnswer = <S extends Schema.Top>(record: S) =>
  Schema.Union([DnsRecords(record), DnsNoRecords, DnsFailure])

export type DnsAnswer<A> =
  | { readonly _tag: "Records"; readonly records: readonly [A, ...Array<A>] }
  | typeof DnsNoRecords.Type
  | typeof DnsFailure.Type

// A class's struct carries its identifier too: JSON Schema names a class by its encoded side.
/** A CAA record (RFC 8659): flags' critical bit, tag and value. */
export class CaaRecord extends Schema.Class<CaaRecord>("CaaRecord")(
  Schema.Struct({
    critical: Schema.Boolean,
    tag: Schema.String,
    value: Schema.String
  }).annotate({ identifier: "CaaRecord" })
) {}
