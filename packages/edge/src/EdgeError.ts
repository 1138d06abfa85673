/**
 * Why the edge could not start: a listener could not open its port (in use, not permitted, no such
 * address). The message names the listener and the address, so an operator can act on it at once.
 */
import { Schema } from "effect"

export class EdgeError extends Schema.TaggedError<EdgeError>()("EdgeError", {
  listener: Schema.Literals(["http", "https"]),
  host: Schema.String,
  port: Schema.Number,
  message: Schema.String
}) {}
