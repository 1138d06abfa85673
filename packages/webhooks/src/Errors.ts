/**
 * The typed failures of webhooks. Adapters turn them into HTTP answers; nothing here knows about
 * status codes.
 */
import { Schema } from "effect"

/** No webhook with this id in the project. */
export class WebhookNotFound extends Schema.TaggedError<WebhookNotFound>()("WebhookNotFound", {
  id: Schema.String
}) {}
