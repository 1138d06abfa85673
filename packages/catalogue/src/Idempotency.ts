/**
 * `Idempotency-Key` on animal creation (IETF httpapi idempotency-key draft): the same key with the same
 * body within 24 hours replays the original answer; a different body is refused; a retry while the
 * first request is still running is told so. Keys are scoped to the account of the API key.
 */

import type { AccountName } from "@petstore/kernel"
import { Duration, Option, Schema } from "effect"
import type { PetId } from "./PetId.js"

const idempotencyKeyPattern = /^[\x21-\x7E]{1,255}$/

export const IdempotencyKey = Schema.String.pipe(
  Schema.check(
    Schema.isPattern(idempotencyKeyPattern, {
      message: "must be 1 to 255 visible ASCII characters",
      toJsonSchema: () => ({ pattern: idempotencyKeyPattern.source, minLength: 1, maxLength: 255 })
    })
  ),
  Schema.brand("IdempotencyKey"),
  Schema.annotate({ identifier: "IdempotencyKey" })
)
export type IdempotencyKey = typeof IdempotencyKey.Type

/** How long a completed request is remembered. */
export const idempotencyRetention = Duration.hours(24)

/**
 * How long an unfinished reservation blocks retries. A request that died without releasing its
 * reservation (a crashed process) must not block its key for a day.
 */
export const idempotencyInFlightLease = Duration.seconds(60)

/**
 * The longest deadline a request may be given: half the in-flight lease, so that every request has
 * ended (answered, or interrupted by its deadline) long before its reservation stops blocking
 * retries. Otherwise a retry could take over a key whose first request is still creating.
 */
export const maxRequestDeadline = Duration.divideUnsafe(idempotencyInFlightLease, 2)

export interface IdempotencyScope {
  readonly account: AccountName
  readonly key: IdempotencyKey
}

export interface IdempotencyRecord {
  readonly fingerprint: string
  readonly createdAt: Date
  /** The animal the request created; none while the request is still running. */
  readonly petId: Option.Option<PetId>
}

export type IdempotencyDecision =
  | { readonly _tag: "Proceed" }
  | { readonly _tag: "Replay"; readonly petId: PetId }
  | { readonly _tag: "KeyReused" }
  | { readonly _tag: "InFlight" }

const proceed: IdempotencyDecision = { _tag: "Proceed" }

/** Decides what a request carrying an idempotency key does, given what is stored under that key. */
export const decideIdempotency = (
  existing: Option.Option<IdempotencyRecord>,
  fingerprint: string,
  nowMillis: number
): IdempotencyDecision => {
  if (Option.isNone(existing)) return proceed
  const record = existing.value
  const age = nowMillis - record.createdAt.getTime()
  if (Option.isSome(record.petId)) {
    if (age >= Duration.toMillis(idempotencyRetention)) return proceed
    return record.fingerprint === fingerprint
      ? { _tag: "Replay", petId: record.petId.value }
      : { _tag: "KeyReused" }
  }
  if (age >= Duration.toMillis(idempotencyInFlightLease)) return proceed
  return record.fingerprint === fingerprint ? { _tag: "InFlight" } : { _tag: "KeyReused" }
}
