/**
 * PostgreSQL `bigint` as @effect/sql-pg delivers it (a JavaScript `bigint`), read as a number only
 * when the number is exact: anything beyond 2^53−1 is refused instead of being rounded.
 */

const maxSafe = BigInt(Number.MAX_SAFE_INTEGER)

/** The exact number of an int8 value; `undefined` for anything else (not a bigint, or not exact). */
export const int8FromBigInt = (value: unknown): number | undefined =>
  typeof value === "bigint" && value >= -maxSafe && value <= maxSafe ? Number(value) : undefined
