/**
 * How a process that cannot go on says why: one readable sentence, no stack trace (which would show
 * internals such as connection strings), and a non-zero exit. A configuration error names its
 * variable first, on the same line as what is wrong with it.
 */
import { Cause, Config, Exit, Predicate, Runtime, Schema, SchemaIssue } from "effect"

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

const describeConfigError = (error: Config.ConfigError): string => {
  const cause = error.cause
  if (!Schema.isSchemaError(cause)) return cause.message
  return formatIssues(cause.issue)
    .issues.map(({ message, path = [] }) =>
      path.length === 0
        ? message
        : `${path.map((segment) => String(typeof segment === "object" ? segment.key : segment)).join(".")}: ${message}`
    )
    .join("; ")
}

export const describeFailure = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  if (error instanceof Config.ConfigError) return `configuration: ${describeConfigError(error)}`
  if (Predicate.hasProperty(error, "message") && typeof error.message === "string") return error.message
  return String(error)
}

/**
 * The exit code: a stop asked for by SIGTERM or SIGINT is a clean exit (0), as supervisors and the
 * graceful-shutdown contract expect (Effect 4's default teardown says 130); a failure exits with its
 * own code when it carries one (the CLI's usage errors), else 1.
 */
export const teardown: Runtime.Teardown = (exit, onExit) => {
  if (Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause)) return onExit(0)
  return onExit(Runtime.getErrorExitCode(Cause.squash(exit.cause)))
}
