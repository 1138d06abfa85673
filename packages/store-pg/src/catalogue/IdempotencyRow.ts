/**
 * An `idempotency_keys` row as a reservation locks it (`fingerprint, created_at as "createdAt",
 * pet_id as "petId"`), read into the domain's `IdempotencyRecord` by hand: the fingerprint a
 * string, the reservation time a valid `Date`, the animal `null` (still running) or a positive safe
 * integer from int8's `bigint`. Read when a `POST /v1/pets` retries a key already stored.
 */
import type { IdempotencyRecord, PetId } from "@petstore/catalogue"
import { Option, Result } from "effect"
import type { SqlConnection } from "effect/sql"
import { isPositiveSafeInteger, isValidDate, positiveSafeInteger } from "../internal/ColumnChecks.js"
import { CorruptRow } from "../internal/CorruptRow.js"
import { int8FromBigInt } from "../internal/Int8FromBigInt.js"

const isPetId = (value: number | undefined): value is PetId => isPositiveSafeInteger(value)

const corrupt = (column: string, rule: string) =>
  Result.fail(new CorruptRow({ table: "idempotency_keys", column, rule }))

export const idempotencyRecordFromRow = (
  row: SqlConnection.Row
): Result.Result<IdempotencyRecord, CorruptRow> => {
  const { createdAt, fingerprint } = row
  if (typeof fingerprint !== "string") return corrupt("fingerprint", "must be a string")
  if (!isValidDate(createdAt)) return corrupt("created_at", "must be a valid date")
  if (row.petId === null) return Result.succeed({ fingerprint, createdAt, petId: Option.none() })
  const petId = int8FromBigInt(row.petId)
  if (!isPetId(petId)) return corrupt("pet_id", `must be null or ${positiveSafeInteger}`)
  return Result.succeed({ fingerprint, createdAt, petId: Option.some(petId) })
}
