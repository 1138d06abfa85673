/**
 * PostgreSQL `bigint` as node-postgres delivers it (decimal text), decoded to a number only when the
 * number is exact: anything beyond 2^53−1 is refused instead of being rounded.
 */
import { Schema } from "effect"

export const Int8FromString = Schema.NumberFromString.pipe(
  Schema.filter((n) => Number.isSafeInteger(n), { message: () => "bigint beyond the safe integer range" })
)
