/**
 * A `pets` row as the repository selects it (`id, name, category_id as "categoryId", status`), read
 * into a `Pet` by hand: every column is checked for what the domain's schemas check (ids positive
 * safe integers, from int8's `bigint`; the name a `PetName`; a known status), then the `Pet` is built
 * without checking again. Rows are read on every animal request, and decoding them through Schema
 * (a struct, transformations, then the class) cost about three times as much as this.
 */
import {
  type CategoryId,
  Pet,
  type PetId,
  type PetName,
  type PetStatus,
  PetStatusValues,
  petNameProblem
} from "@petstore/catalogue"
import { Result } from "effect"
import type { SqlConnection } from "effect/sql"
import { isPositiveSafeInteger, positiveSafeInteger } from "../internal/ColumnChecks.js"
import { CorruptRow } from "../internal/CorruptRow.js"
import { int8FromBigInt } from "../internal/Int8FromBigInt.js"

const statusRule = `must be one of ${PetStatusValues.join(", ")}`

const isPetId = (value: number | undefined): value is PetId => isPositiveSafeInteger(value)

const isCategoryId = (value: number | undefined): value is CategoryId => isPositiveSafeInteger(value)

const isPetName = (value: string): value is PetName => petNameProblem(value) === undefined

const isPetStatus = (value: unknown): value is PetStatus => PetStatusValues.some((status) => status === value)

const corrupt = (column: string, rule: string) => Result.fail(new CorruptRow({ table: "pets", column, rule }))

export const petFromRow = (row: SqlConnection.Row): Result.Result<Pet, CorruptRow> => {
  const id = int8FromBigInt(row.id)
  if (!isPetId(id)) return corrupt("id", `must be ${positiveSafeInteger}`)
  const name = row.name
  if (typeof name !== "string") return corrupt("name", "must be a string")
  if (!isPetName(name)) return corrupt("name", petNameProblem(name) ?? "must be a valid name")
  const categoryId = int8FromBigInt(row.categoryId)
  if (!isCategoryId(categoryId)) return corrupt("category_id", `must be ${positiveSafeInteger}`)
  const status = row.status
  if (!isPetStatus(status)) return corrupt("status", statusRule)
  return Result.succeed(new Pet({ id, name, categoryId, status }, { disableChecks: true }))
}
