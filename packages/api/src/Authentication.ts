/**
 * Bearer API keys (RFC 6750): the middleware every protected operation carries, and the caller it
 * provides to handlers. It also applies the rate limits (per key, or per client address without a
 * valid key), so every protected operation may answer 429. The implementation lives with the server; clients only need this contract.
 */
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import type { Caller } from "@petstore/domain"
import { Context, Schema } from "effect"
import { InternalError, RateLimited, Unauthorized, Unavailable } from "./ApiErrors.js"

export class CurrentCaller extends Context.Tag("@petstore/api/CurrentCaller")<CurrentCaller, Caller>() {}

export const bearerApiKey = HttpApiSecurity.bearer.pipe(
  HttpApiSecurity.annotate(OpenApi.Description, "An API key, sent as `Authorization: Bearer <key>`.")
)

export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("@petstore/api/Authentication", {
  provides: CurrentCaller,
  failure: Schema.Union(Unauthorized, RateLimited, Unavailable, InternalError),
  security: { apiKey: bearerApiKey }
}) {}
