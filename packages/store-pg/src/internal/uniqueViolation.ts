/**
 * Recognises a statement refused by a unique constraint (SQLSTATE 23505), so that an insert of a key
 * already taken becomes the domain's typed failure rather than a storage failure.
 */
import type { SqlError } from "@effect/sql"

const uniqueViolationCode = "23505"

const field = (cause: unknown, name: string): unknown =>
  typeof cause === "object" && cause !== null && name in cause
    ? (cause as Record<string, unknown>)[name]
    : undefined

/** True for a failure of the statement on `constraint` (the server names it in the error). */
export const isUniqueViolation =
  (constraint: string) =>
  (error: unknown): error is SqlError.SqlError =>
    typeof error === "object" &&
    error !== null &&
    (error as { readonly _tag?: unknown })._tag === "SqlError" &&
    field((error as SqlError.SqlError).cause, "code") === uniqueViolationCode &&
    field((error as SqlError.SqlError).cause, "constraint") === constraint
