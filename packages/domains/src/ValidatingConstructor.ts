/**
 * Builds values of a `Schema.Class` with the same checks as `new`. Effect 3 compiled the validator
 * of `new` again on every call when a field was a transformation (`Schema.Date`, a nested class):
 * about 100 µs for one `CustomDomain`, on every step of the worker, so this compiled it once.
 * Effect 4.1 compiles it once per schema itself (`new CustomDomain(…)` measured at about 2 µs, no
 * faster through a separately compiled validator), so this is `new`, kept for its call sites.
 */
import type { Schema } from "effect"

export const validatingConstructor = <Fields extends Schema.Struct.Fields, A>(klass: {
  readonly fields: Fields
  new (props: Schema.Struct.Type<Fields>, options?: Schema.MakeOptions): A
}): ((props: Schema.Struct.Type<Fields>) => A) => {
  return (props) => new klass(props)
}
