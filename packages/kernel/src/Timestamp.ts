/**
 * An instant as the API shows it: ISO 8601 text in UTC (`2026-11-26T09:00:00.000Z`), a `Date` in
 * code. Its JSON Schema says `format: date-time`, so that clients generated from the OpenAPI document
 * read it as a date rather than as any string.
 */
import { Schema, SchemaTransformation } from "effect"

// The string carries the identifier too: JSON Schema names the encoded side by it.
export const Timestamp = Schema.String.annotate({
  identifier: "Timestamp",
  format: "date-time",
  description: "An instant, ISO 8601 in UTC, e.g. 2026-11-26T09:00:00.000Z."
}).pipe(
  Schema.decodeTo(Schema.Date, SchemaTransformation.dateFromString),
  Schema.annotate({ identifier: "Timestamp" })
)
