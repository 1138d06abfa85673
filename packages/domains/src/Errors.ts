/**
 * The typed failures of custom domains. Adapters turn them into HTTP answers; nothing here knows
 * about status codes.
 */
import { Schema } from "effect"

export class DomainNotFound extends Schema.TaggedError<DomainNotFound>()("DomainNotFound", {
  hostname: Schema.String
}) {}

/** Another project of the same account already has this hostname (another account's: see Ownership). */
export class HostnameTaken extends Schema.TaggedError<HostnameTaken>()("HostnameTaken", {
  hostname: Schema.String
}) {}

/** Custom domains need a paid plan (Pro or above). */
export class PlanRequired extends Schema.TaggedError<PlanRequired>()("PlanRequired", {}) {}

/** Custom domains need a project that has been deployed successfully. */
export class DeployRequired extends Schema.TaggedError<DeployRequired>()("DeployRequired", {}) {}

/** A hostname, config or request that breaks a rule; `message` is "field: rule". */
export class InvalidDomainRequest extends Schema.TaggedError<InvalidDomainRequest>()("InvalidDomainRequest", {
  message: Schema.String
}) {}

/** Re-verify asked of a domain that is not verified, or whose certificate is not delayed or failed. */
export class NotReverifiable extends Schema.TaggedError<NotReverifiable>()("NotReverifiable", {
  hostname: Schema.String,
  reason: Schema.String
}) {}
