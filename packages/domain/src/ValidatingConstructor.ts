/**
 * Builds values of a `Schema.Class` with the same checks as `new`, through a validator compiled once.
 * `new` compiles its validator again on every call when a field is a transformation (`Schema.Date`, a
 * nested class): about 100 µs for one `CustomDomain`, on every step of the worker, where this takes 6.
 */
import { ParseResult, Schema } from "effect"

export const validatingConstructor = <Fields extends Schema.Struct.Fields, A>(klass: {
  readonly fields: Fields
  new (props: Schema.Struct.Type<Fields>, options: true): A
}): ((props: Schema.Struct.Type<Fields>) => A) => {
  const validate = ParseResult.validateSync(Schema.Struct(klass.fields))
  // The validated value is the struct's type itself, only spelled as a simplified mapped type.
  return (props) => new klass(validate(props) as Schema.Struct.Type<Fields>, true)
}
