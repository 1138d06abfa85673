/**
 * A row of our own database that breaks a rule of the domain (the database let it through, or its
 * schema is out of step with this code). Mapping it fails with this, which `storageOperation` makes
 * the operation's `StorageError`: a storage failure, never a value handed on, never a defect.
 */
import { Data } from "effect"

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
