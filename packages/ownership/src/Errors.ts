/**
 * The typed failures of ownership and claims. Adapters turn them into HTTP answers; nothing here
 * knows about status codes.
 */
import { Schema } from "effect"

/** The hostname lies at or under an apex that another account has claimed and proved. */
export class DomainClaimed extends Schema.TaggedError<DomainClaimed>()("DomainClaimed", {
  hostname: Schema.String
}) {}

/** No claim of this apex by the caller's account (another account's claim is never shown). */
export class ClaimNotFound extends Schema.TaggedError<ClaimNotFound>()("ClaimNotFound", {
  apex: Schema.String
}) {}
