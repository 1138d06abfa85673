/**
 * A value some library threw or rejected with, turned into the text an error message quotes: libraries
 * throw Errors, but also strings and plain objects (an ACME CA's problem document), and the message must
 * say what went wrong either way, without a stack.
 */

/** JSON text of `value`, or nothing when it has none (`undefined`, a function) or cannot be written (a cycle, a bigint). */
const jsonOf = (value: unknown): string | undefined => {
  try {
    return JSON.stringify(value)
  } catch {
    return undefined
  }
}

/** An Error's message; a string as it is; anything else as JSON when it can be written so, else as `String` writes it. */
export const messageOf = (thrown: unknown): string => {
  if (thrown instanceof Error) return thrown.message
  if (typeof thrown === "string") return thrown
  return jsonOf(thrown) ?? String(thrown)
}
