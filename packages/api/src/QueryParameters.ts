/**
 * Decoders for the text of query and path parameters. A parameter that appears twice arrives as an
 * array and is refused like any other malformed value: no value is picked silently.
 */
import { JSONSchema, ParseResult, Schema } from "effect"

/** Canonical decimal digits only: no sign, no exponent, no leading zeros, no spaces. */
export const DecimalInteger = Schema.transformOrFail(Schema.String, Schema.Number, {
  strict: true,
  decode: (text, _, ast) =>
    /^(0|[1-9][0-9]{0,19})$/.test(text)
      ? ParseResult.succeed(Number(text))
      : ParseResult.fail(new ParseResult.Type(ast, text, "must be an integer")),
  encode: (n) => ParseResult.succeed(String(n))
})

/**
 * The values `target` accepts as JSON Schema, inline (a parameter's schema has no `$defs` to point
 * into). A parameter is text on the wire, but the OpenAPI document describes its value: clients
 * generated from it should see an integer and its range, not a string.
 */
const valueJsonSchema = (target: Schema.Schema.Any): JSONSchema.JsonSchema7 => {
  const document = JSONSchema.make(Schema.typeSchema(target))
  const name = "$ref" in document ? document.$ref.replace(/^#\/\$defs\//, "") : undefined
  // Without an identifier there is nothing to point at: the value is an integer all the same.
  return (name === undefined ? undefined : document.$defs?.[name]) ?? { type: "integer" }
}

/** A query parameter holding an integer that `target` then constrains; any failure reads as `rule`. */
export const integerParameter = <A, I extends number, R>(target: Schema.Schema<A, I, R>, rule: string) =>
  DecimalInteger.pipe(Schema.compose(target, { strict: false })).annotations({
    message: () => ({ message: rule, override: true }),
    jsonSchema: valueJsonSchema(target)
  })

/** A query parameter holding one of a set of words; any failure reads as `rule`. */
export const literalParameter = <A extends string, R>(target: Schema.Schema<A, A, R>, rule: string) =>
  target.annotations({ message: () => ({ message: rule, override: true }) })
