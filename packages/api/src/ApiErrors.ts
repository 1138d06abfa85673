/**
 * The error body every failure of the service answers with: exactly `{code, message, status}`, where
 * `status` repeats the HTTP status. One class per status, so the OpenAPI document and the typed client
 * know which codes each operation can answer. Plain classes, not tagged errors: a `_tag` would be
 * encoded into the body.
 */
import { Schema } from "effect"
import { NamedClass } from "./NamedClass.js"

/**
 * The schema of `codes`: one code is a plain literal, so that the OpenAPI document states it as a
 * one-word enumeration rather than a union of one.
 */
const codeLiterals = <const Codes extends readonly [string, ...Array<string>]>(
  codes: Codes
): Schema.Codec<Codes[number]> => (codes.length === 1 ? Schema.Literal(codes[0]) : Schema.Literals(codes))

/**
 * An error class, declared like a `Schema.Class`: its name, its codes, the HTTP status it answers
 * with and what it means. `httpApiStatus` is that status: `HttpApi` answers with it and `apiError`
 * puts it in the body, so it is written here only.
 */
const ErrorClass =
  <Self>(identifier: string) =>
  <const Codes extends readonly [string, ...Array<string>], const Status extends number>(
    codes: Codes,
    status: Status,
    description: string
  ) =>
    NamedClass<Self>(identifier)(
      { code: codeLiterals(codes), message: Schema.String, status: Schema.Literal(status) },
      { httpApiStatus: status, description }
    )

export class InvalidRequest extends ErrorClass<InvalidRequest>("InvalidRequest")(
  ["invalid_request"],
  400,
  "The request is malformed; the message names the field and the rule."
) {}

export class Unauthorized extends ErrorClass<Unauthorized>("Unauthorized")(
  ["unauthorized"],
  401,
  "The API key is missing or invalid."
) {}

export class Forbidden extends ErrorClass<Forbidden>("Forbidden")(
  ["forbidden", "plan_required"],
  403,
  "The key may not do this."
) {}

export class NotFound extends ErrorClass<NotFound>("NotFound")(
  ["not_found"],
  404,
  "The resource could not be found."
) {}

export class MethodNotAllowed extends ErrorClass<MethodNotAllowed>("MethodNotAllowed")(
  ["method_not_allowed"],
  405,
  "The path exists but not with this method (see Allow)."
) {}

export class Conflict extends ErrorClass<Conflict>("Conflict")(
  ["conflict", "domain_in_use", "domain_claimed", "deploy_required", "limit_reached"],
  409,
  "The request conflicts with the current state."
) {}

export class Gone extends ErrorClass<Gone>("Gone")(["gone"], 410, "The operation has been removed.") {}

export class PayloadTooLarge extends ErrorClass<PayloadTooLarge>("PayloadTooLarge")(
  ["payload_too_large"],
  413,
  "The request body is larger than 64 KiB."
) {}

export class UnsupportedMediaType extends ErrorClass<UnsupportedMediaType>("UnsupportedMediaType")(
  ["unsupported_media_type"],
  415,
  "The request body is not JSON."
) {}

export class IdempotencyKeyReused extends ErrorClass<IdempotencyKeyReused>("IdempotencyKeyReused")(
  ["idempotency_key_reused"],
  422,
  "The Idempotency-Key was used with a different body."
) {}

export class RateLimited extends ErrorClass<RateLimited>("RateLimited")(
  ["rate_limited"],
  429,
  "Too many requests (see Retry-After)."
) {}

export class ExpectationFailed extends ErrorClass<ExpectationFailed>("ExpectationFailed")(
  ["expectation_failed"],
  417,
  "The request's Expect header asks for something other than 100-continue."
) {}

export class InternalError extends ErrorClass<InternalError>("InternalError")(
  ["internal"],
  500,
  "An unexpected error; nothing internal is disclosed."
) {}

export class Unavailable extends ErrorClass<Unavailable>("Unavailable")(
  ["unavailable"],
  503,
  "A dependency is unavailable; retry later (see Retry-After)."
) {}

/** How long a client should wait before retrying after a 503 (its `Retry-After`). */
export const unavailableRetryAfterSeconds = 5

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
