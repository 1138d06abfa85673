/**
 * How a process that cannot go on says why: one readable sentence, no stack trace (which would show
 * internals such as connection strings), and a non-zero exit.
 */
import { Cause, ConfigError } from "effect"

export const describeFailure = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  if (ConfigError.isConfigError(error)) return `configuration: ${String(error)}`
  if (
    typeof error === "object" &&
    error !== null &&
    "message" in error &&
    typeof error.message === "string"
  ) {
    return error.message
  }
  return String(error)
}
