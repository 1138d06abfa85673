/**
 * The typed failures of projects. Adapters turn them into HTTP answers; nothing here knows about
 * status codes.
 */
import { Schema } from "effect"

export class ProjectIdTaken extends Schema.TaggedError<ProjectIdTaken>()("ProjectIdTaken", {
  id: Schema.String
}) {}

export class ProjectNotFound extends Schema.TaggedError<ProjectNotFound>()("ProjectNotFound", {
  id: Schema.String
}) {}
