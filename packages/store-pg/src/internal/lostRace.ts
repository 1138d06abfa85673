/**
 * A conditional write that lost: a row it was decided from changed meanwhile, or the database refused
 * it as one (the unique verified hostname, a deadlock between writers, a serialization failure).
 * Raised inside the write's transaction so that it rolls back whole; its caller answers "not stored"
 * and decides again from what won.
 */
import { Data } from "effect"
import { isSqlError } from "effect/sql/SqlError"
import { isUniqueViolation } from "./uniqueViolation.js"

export class LostRace extends Data.TaggedError("LostRace")<{}> {}

/** Whether `error` is the database refusing a write that raced another (see `LostRace`). */
export const isRaceRefusal =
  (uniqueConstraint: string) =>
  (error: unknown): boolean =>
    isUniqueViolation(uniqueConstraint)(error) ||
    (isSqlError(error) &&
      (error.reason._tag === "DeadlockError" || error.reason._tag === "SerializationError"))
