/**
 * Middleware for operations that take a body: it must be declared JSON, be at most 64 KiB, parse
 * as JSON and nest at most `maxJsonNesting` levels. It runs after authentication, so a caller without a valid key learns nothing about what
 * else is wrong.
 */
import type { HttpServerRequest } from "effect/http/HttpServerRequest"
import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import { InvalidRequest, PayloadTooLarge, UnsupportedMediaType } from "./ApiErrors.js"

/** The largest request body the service reads. */
export const maxRequestBodyBytes = 64 * 1024

/**
 * How deeply arrays and objects may nest in a request body. No operation's body nests more than two
 * levels; the limit keeps a small body of thousands of brackets from costing deep recursion anywhere
 * it is read, parsed, decoded or described in an error.
 */
export const maxJsonNesting = 64

/**
 * It provides the request the handler decodes: the same one, or, for a body streamed without a
 * declared length, one over the body it has already read within the limit.
 */
export class JsonBody extends HttpApiMiddleware.Service<JsonBody, { provides: HttpServerRequest }>()(
  "@petstore/api/JsonBody",
  { error: [UnsupportedMediaType, PayloadTooLarge, InvalidRequest] }
) {}
