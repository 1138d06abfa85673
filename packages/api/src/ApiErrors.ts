/**
 * The error body every failure of the service answers with: exactly `{code, message, status}`, where
 * `status` repeats the HTTP status. One class per status, so the OpenAPI document and the typed client
 * know which codes each operation can answer.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

const fields = <const Codes extends ReadonlyArray<string>, const Status extends number>(
  codes: Codes,
  status: Status
) => ({
  code: Schema.Literal(...codes),
  message: Schema.String,
  status: Schema.Literal(status)
})

export class InvalidRequest extends Schema.Class<InvalidRequest>("InvalidRequest")(
  fields(["invalid_request"], 400),
  HttpApiSchema.annotations({
    status: 400,
    description: "The request is malformed; the message names the field and the rule."
  })
) {}

export class Unauthorized extends Schema.Class<Unauthorized>("Unauthorized")(
  fields(["unauthorized"], 401),
  HttpApiSchema.annotations({ status: 401, description: "The API key is missing or invalid." })
) {}

export class Forbidden extends Schema.Class<Forbidden>("Forbidden")(
  fields(["forbidden", "plan_required"], 403),
  HttpApiSchema.annotations({ status: 403, description: "The key may not do this." })
) {}

export class NotFound extends Schema.Class<NotFound>("NotFound")(
  fields(["not_found"], 404),
  HttpApiSchema.annotations({ status: 404, description: "The resource could not be found." })
) {}

export class MethodNotAllowed extends Schema.Class<MethodNotAllowed>("MethodNotAllowed")(
  fields(["method_not_allowed"], 405),
  HttpApiSchema.annotations({
    status: 405,
    description: "The path exists but not with this method (see Allow)."
  })
) {}

export class Conflict extends Schema.Class<Conflict>("Conflict")(
  fields(["conflict", "domain_in_use", "deploy_required"], 409),
  HttpApiSchema.annotations({ status: 409, description: "The request conflicts with the current state." })
) {}

export class Gone extends Schema.Class<Gone>("Gone")(
  fields(["gone"], 410),
  HttpApiSchema.annotations({ status: 410, description: "The operation has been removed." })
) {}

export class PayloadTooLarge extends Schema.Class<PayloadTooLarge>("PayloadTooLarge")(
  fields(["payload_too_large"], 413),
  HttpApiSchema.annotations({ status: 413, description: "The request body is larger than 64 KiB." })
) {}

export class UnsupportedMediaType extends Schema.Class<UnsupportedMediaType>("UnsupportedMediaType")(
  fields(["unsupported_media_type"], 415),
  HttpApiSchema.annotations({ status: 415, description: "The request body is not JSON." })
) {}

export class IdempotencyKeyReused extends Schema.Class<IdempotencyKeyReused>("IdempotencyKeyReused")(
  fields(["idempotency_key_reused"], 422),
  HttpApiSchema.annotations({
    status: 422,
    description: "The Idempotency-Key was used with a different body."
  })
) {}

export class RateLimited extends Schema.Class<RateLimited>("RateLimited")(
  fields(["rate_limited"], 429),
  HttpApiSchema.annotations({ status: 429, description: "Too many requests (see Retry-After)." })
) {}

export class InternalError extends Schema.Class<InternalError>("InternalError")(
  fields(["internal"], 500),
  HttpApiSchema.annotations({
    status: 500,
    description: "An unexpected error; nothing internal is disclosed."
  })
) {}

export class Unavailable extends Schema.Class<Unavailable>("Unavailable")(
  fields(["unavailable"], 503),
  HttpApiSchema.annotations({
    status: 503,
    description: "A dependency is unavailable; retry later (see Retry-After)."
  })
) {}

/** Every error body the service can answer with. */
export const ApiError = Schema.Union(
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
  InternalError,
  Unavailable
)
export type ApiError = typeof ApiError.Type
