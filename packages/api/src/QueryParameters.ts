/**
 * Decoders for the text of query and path parameters. A parameter that appears twice arrives as an
 * array and is refused like any other malformed value: no value is picked silently.
 */
import { ParseResult, Schema } from "effect"

/** Canonical decimal digits only: no sign, no exponent, no leading zeros, no spaces. */
export const DecimalInteger = Schema.transformOrFail(Schema.String, Schema.Number, {
  strict: true,
  decode: (text, _, ast) =>
    /^(0|[1-9][0-9]{0,19})$/.test(text)
      ? ParseResult.succeed(Number(text))
      : ParseResult.fail(new ParseResult.Type(ast, text, "must be an integer")),
  encode: (n) => ParseResult.succeed(String(n))
})

/** A query parameter holding an integer that `target` then constrains; any failure reads as `rule`. */
export const integerParameter = <A, I extends number, R>(target: Schema.Schema<A, I, R>, rule: string) =>
  DecimalInteger.pipe(Schema.compose(target, { strict: false })).annotations({
    message: () => ({ message: rule, override: true })
  })

/** A query parameter holding one of a set of words; any failure reads as `rule`. */
export const literalParameter = <A extends string, R>(target: Schema.Schema<A, A, R>, rule: string) =>
  target.annotations({ message: () => ({ message: rule, override: true }) })
