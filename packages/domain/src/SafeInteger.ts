/**
 * Integers that survive a JSON round trip through any JavaScript client.
 *
 * The specification says int64, but numbers above 2^53−1 cannot be represented exactly by JavaScript
 * parsers, so they are refused instead of being silently rounded.
 */
import { Schema } from "effect"

export const maxSafeInteger = Number.MAX_SAFE_INTEGER

/** A whole number from 1 to 2^53−1; anything else is refused with one plain rule. */
export const PositiveSafeInteger = Schema.Number.pipe(
  Schema.filter((n) => Number.isSafeInteger(n) && n >= 1, {
    message: () => ({ message: `must be an integer from 1 to ${maxSafeInteger}`, override: true })
  })
).annotations({
  message: () => ({ message: `must be an integer from 1 to ${maxSafeInteger}`, override: true }),
  jsonSchema: { type: "integer", format: "int64", minimum: 1, maximum: maxSafeInteger }
})

/** Whether a decimal string (a path parameter) is the canonical text of a positive safe integer. */
export const isPositiveSafeIntegerText = (text: string): boolean =>
  /^[1-9][0-9]{0,15}$/.test(text) && Number.isSafeInteger(Number(text))
