/**
 * The error body every failure of the service answers with: exactly `{code, message, status}`, where
 * `status` repeats the HTTP status. One class per status, so the OpenAPI document and the typed client
 * know which codes each operation can answer. Plain classes, not tagged errors: a `_tag` would be
 * encoded into the body.
 */
import { Schema } from "effect"

/**
 * A class's body and its annotations. The description goes on the body as well as on the class: the
 * OpenAPI document describes the body (the class's wire form) with one, and the response with the other.
 */
const bodyAndAnnotations = <const Codes extends ReadonlyArray<string>, const Status extends number>(
  codes: Codes,
  status: Status,
  description: string
) =>
  [
    Schema.Struct({
      code: Schema.Literals(codes),
      message: Schema.String,
      status: Schema.Literal(status)
    }).annotate({ description }),
    { httpApiStatus: status, description }
  ] as const

export class InvalidRequest extends Schema.Class<InvalidRequest>("InvalidRequest")(
  ...bodyAndAnnotations(
    ["invalid_request"],
    400,
    "The request is malformed; the message names the field and the rule."
  )
) {}

export class Unauthorized extends Schema.Class<Unauthorized>("Unauthorized")(
  ...bodyAndAnnotations(["unauthorized"], 401, "The API key is missing or invalid.")
) {}

export class Forbidden extends Schema.Class<Forbidden>("Forbidden")(
  ...bodyAndAnnotations(["forbidden", "plan_required"], 403, "The key may not do this.")
) {}

export class NotFound extends Schema.Class<NotFound>("NotFound")(
  ...bodyAndAnnotations(["not_found"], 404, "The resource could not be found.")
) {}

export class MethodNotAllowed extends Schema.Class<MethodNotAllowed>("MethodNotAllowed")(
  ...bodyAndAnnotations(["method_not_allowed"], 405, "The path exists but not with this method (see Allow).")
) {}

export class Conflict extends Schema.Class<Conflict>("Conflict")(
  ...bodyAndAnnotations(
    ["conflict", "domain_in_use", "deploy_required"],
    409,
    "The request conflicts with the current state."
  )
) {}

export class Gone extends Schema.Class<Gone>("Gone")(
  ...bodyAndAnnotations(["gone"], 410, "The operation has been removed.")
) {}

export class PayloadTooLarge extends Schema.Class<PayloadTooLarge>("PayloadTooLarge")(
  ...bodyAndAnnotations(["payload_too_large"], 413, "The request body is larger than 64 KiB.")
) {}

export class UnsupportedMediaType extends Schema.Class<UnsupportedMediaType>("UnsupportedMediaType")(
  ...bodyAndAnnotations(["unsupported_media_type"], 415, "The request body is not JSON.")
) {}

export class IdempotencyKeyReused extends Schema.Class<IdempotencyKeyReused>("IdempotencyKeyReused")(
  ...bodyAndAnnotations(
    ["idempotency_key_reused"],
    422,
    "The Idempotency-Key was used with a different body."
  )
) {}

export class RateLimited extends Schema.Class<RateLimited>("RateLimited")(
  ...bodyAndAnnotations(["rate_limited"], 429, "Too many requests (see Retry-After).")
) {}

export class ExpectationFailed extends Schema.Class<ExpectationFailed>("ExpectationFailed")(
  ...bodyAndAnnotations(
    ["expectation_failed"],
    417,
    "The request's Expect header asks for something other than 100-continue."
  )
) {}

export class InternalError extends Schema.Class<InternalError>("InternalError")(
  ...bodyAndAnnotations(["internal"], 500, "An unexpected error; nothing internal is disclosed.")
) {}

export class Unavailable extends Schema.Class<Unavailable>("Unavailable")(
  ...bodyAndAnnotations(["unavailable"], 503, "A dependency is unavailable; retry later (see Retry-After).")
) {}

/** Every error body the service can answer with. */
export const ApiError = Schema.Union([
  InvalidRequest,
  Unauthorized,
  Forbidden,
  NotFound,
  MethodNotAllowed,
  Conflict,
  Gone,
  PayloadTooLarge,
  UnsupportedMediaType,
  IdempotencyKeyReused,
  RateLimited,
  ExpectationFailed,
  InternalError,
  Unavailable
])
export type ApiError = typeof ApiError.Type
