/**
 * Recognises a statement refused by a unique constraint (SQLSTATE 23505, which @effect/sql-pg reports
 * as a `UniqueViolation` naming the constraint), so that an insert of a key already taken becomes the
 * domain's typed failure rather than a storage failure.
 */
import { isSqlError, type SqlError } from "effect/sql/SqlError"

/** True for a failure of the statement on `constraint` (the server names it in the error). */
export const isUniqueViolation =
  (constraint: string) =>
  (error: unknown): error is SqlError =>
    isSqlError(error) && error.reason._tag === "UniqueViolation" && error.reason.constraint === constraint
