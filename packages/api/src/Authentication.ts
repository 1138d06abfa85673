/**
 * Bearer API keys (RFC 6750): the middleware every protected operation carries, and the caller it
 * provides to handlers. It also applies the rate limits (per key, or per client address without a
 * valid key), so every protected operation may answer 429. The implementation lives with the server;
 * clients only need this contract.
 */
import type { Caller } from "@petstore/kernel"
import { Context } from "effect"
import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import * as HttpApiSecurity from "effect/http-api/HttpApiSecurity"
import * as OpenApi from "effect/http-api/OpenApi"
import { InternalError, RateLimited, Unauthorized, Unavailable } from "./ApiErrors.js"

export class CurrentCaller extends Context.Service<CurrentCaller, Caller>()("@petstore/api/CurrentCaller") {}

/** `bearer` in lower case, as the scheme is registered (RFC 6750); matching is case-insensitive anyway. */
export const bearerApiKey = HttpApiSecurity.http({ scheme: "bearer" }).pipe(
  HttpApiSecurity.annotate(OpenApi.Description, "An API key, sent as `Authorization: Bearer <key>`.")
)

export class Authentication extends HttpApiMiddleware.Service<Authentication, { provides: CurrentCaller }>()(
  "@petstore/api/Authentication",
  {
    error: [Unauthorized, RateLimited, Unavailable, InternalError],
    security: { apiKey: bearerApiKey }
  }
) {}
