/**
 * A row of our own database that breaks a rule of the domain (the database let it through, or its
 * schema is out of step with this code). Mapping it fails with this, which `storageOperation` makes
 * the operation's `StorageError`: a storage failure, never a value handed on, never a defect. A
 * result set is read with a row mapper by `everyRow`.
 */
import { Data, Result } from "effect"
import type { SqlConnection } from "effect/sql"

export class CorruptRow extends Data.TaggedError("CorruptRow")<{
  readonly table: string
  readonly column: string
  /** The rule the value breaks, as the domain words it. */
  readonly rule: string
}> {
  override get message(): string {
    return `${this.table}.${this.column}: ${this.rule}`
  }
}

/** Every row read by `fromRow` (a hand-written row mapper); the first row that is not one fails the lot. */
export const everyRow = <A>(
  rows: ReadonlyArray<SqlConnection.Row>,
  fromRow: (row: SqlConnection.Row) => Result.Result<A, CorruptRow>
): Result.Result<Array<A>, CorruptRow> => {
  const read: Array<A> = []
  for (const row of rows) {
    const one = fromRow(row)
    if (Result.isFailure(one)) return Result.fail(one.failure)
    read.push(one.success)
  }
  return Result.succeed(read)
}
