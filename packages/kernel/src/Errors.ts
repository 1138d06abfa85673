/**
 * The typed failures both features share: a caller without a valid key, and storage that cannot
 * answer. Adapters turn them into HTTP answers; nothing here knows about status codes.
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
