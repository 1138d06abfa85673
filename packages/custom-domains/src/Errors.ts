/**
 * The typed failures of custom domains. Adapters turn them into HTTP answers; nothing here knows
 * about status codes.
 */
import { Schema } from "effect"

export class ProjectIdTaken extends Schema.TaggedError<ProjectIdTaken>()("ProjectIdTaken", {
  id: Schema.String
}) {}

export class ProjectNotFound extends Schema.TaggedError<ProjectNotFound>()("ProjectNotFound", {
  id: Schema.String
}) {}

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

/** The hostname lies at or under an apex that another account has claimed and proved. */
export class DomainClaimed extends Schema.TaggedError<DomainClaimed>()("DomainClaimed", {
  hostname: Schema.String
}) {}

/** No claim of this apex by the caller's account (another account's claim is never shown). */
export class ClaimNotFound extends Schema.TaggedError<ClaimNotFound>()("ClaimNotFound", {
  apex: Schema.String
}) {}

/** No webhook with this id in the project. */
export class WebhookNotFound extends Schema.TaggedError<WebhookNotFound>()("WebhookNotFound", {
  id: Schema.String
}) {}

/**
 * A count an account grows (projects, domains, webhooks, claims…) is at its limit: `limit` names it
 * (`domains per project`, see `limitNames`) and `value` is the limit in force.
 */
export class LimitReached extends Schema.TaggedError<LimitReached>()("LimitReached", {
  limit: Schema.String,
  value: Schema.Number
}) {}
