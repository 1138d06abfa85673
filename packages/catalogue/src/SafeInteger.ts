/**
 * Integers that survive a JSON round trip through any JavaScript client.
 *
 * The specification says int64, but numbers above 2^53−1 cannot be represented exactly by JavaScript
 * parsers, so they are refused instead of being silently rounded.
 */
import { Schema } from "effect"

export const maxSafeInteger = Number.MAX_SAFE_INTEGER

const rule = `must be an integer from 1 to ${maxSafeInteger}`

/**
 * A whole number from 1 to 2^53−1; anything else (a string, `null`, a fraction) is refused with one
 * plain rule: the message on the number itself covers a value of the wrong type, the checks' one a
 * number out of range. The integer check aborts, so that a value breaking both checks (0.5) still
 * gets one message; being `isInt`, it also makes the JSON form a plain number.
 */
export const PositiveSafeInteger = Schema.Number.annotate({ message: rule }).check(
  Schema.isInt({ message: rule }).abort(),
  Schema.isBetween(
    { minimum: 1, maximum: maxSafeInteger },
    { message: rule, toJsonSchema: () => ({ format: "int64", minimum: 1, maximum: maxSafeInteger }) }
  )
)

/** Whether a decimal string (a path parameter) is the canonical text of a positive safe integer. */
export const isPositiveSafeIntegerText = (text: string): boolean =>
  /^[1-9][0-9]{0,15}$/.test(text) && Number.isSafeInteger(Number(text))
