/**
 * Middleware for operations that take a body: it must be declared JSON, be at most 64 KiB and parse
 * as JSON. It runs after authentication, so a caller without a valid key learns nothing about what
 * else is wrong.
 */
import type { HttpServerRequest } from "effect/http/HttpServerRequest"
import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import { InvalidRequest, PayloadTooLarge, UnsupportedMediaType } from "./ApiErrors.js"

/** The largest request body the service reads. */
export const maxRequestBodyBytes = 64 * 1024

/**
 * It provides the request the handler decodes: the same one, or, for a body streamed without a
 * declared length, one over the body it has already read within the limit.
 */
export class JsonBody extends HttpApiMiddleware.Service<JsonBody, { provides: HttpServerRequest }>()(
  "@petstore/api/JsonBody",
  { error: [UnsupportedMediaType, PayloadTooLarge, InvalidRequest] }
) {}
