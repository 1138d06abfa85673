/**
 * The typed failures the features share: a caller without a valid key, storage that cannot answer,
 * and a count at its limit. Adapters turn them into HTTP answers; nothing here knows about status
 * codes.
 */
import { Schema } from "effect"

export class Unauthenticated extends Schema.TaggedError<Unauthenticated>()("Unauthenticated", {
  /** Whether a token was presented at all (RFC 6750 then adds `error="invalid_token"`). */
  tokenPresented: Schema.Boolean
}) {}

/** Storage could not answer (unreachable, timed out, or returned something unreadable). */
export class StorageError extends Schema.TaggedError<StorageError>()("StorageError", {
  operation: Schema.String,
  cause: Schema.Defect()
}) {
  /** For operators' logs only; clients never see it. */
  override get message(): string {
    const cause = this.cause instanceof Error ? this.cause.message : String(this.cause)
    return `${this.operation} failed: ${cause}`
  }
}

/**
 * A count an account grows (projects, domains, webhooks, claims…) is at its limit: `limit` names it
 * (`domains per project`, see `limitNames`) and `value` is the limit in force.
 */
export class LimitReached extends Schema.TaggedError<LimitReached>()("LimitReached", {
  limit: Schema.String,
  value: Schema.Number
}) {}
