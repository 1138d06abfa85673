/**
 * What stands between a domain and being served, said so the owner can fix DNS without guessing:
 * each problem names what was found next to what is required.
 */
import { Schema } from "effect"

export const ProblemCode = Schema.Literals([
  "record_not_found",
  "conflicting_record",
  "cname_mismatch",
  "apex_requires_alias",
  "dns_error",
  "verification_timed_out",
  "caa_blocks_issuer",
  "domain_no_longer_verifies",
  "issuance_failed",
  "ownership_required",
  "ownership_lost",
  "wildcard_record"
])
export type ProblemCode = typeof ProblemCode.Type

// A class's struct carries its identifier too: JSON Schema names a class by its encoded side.
export class Problem extends Schema.Class<Problem>("Problem")(
  Schema.Struct({
    code: ProblemCode,
    message: Schema.String,
    /** The records actually resolved, when there were any. */
    found: Schema.optionalKey(Schema.Array(Schema.String))
  }).annotate({ identifier: "Problem" })
) {}
