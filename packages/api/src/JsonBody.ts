/**
 * Middleware for operations that take a body: it must be JSON and at most 64 KiB. It runs after
 * authentication, so a caller without a valid key learns nothing about what else is wrong.
 */
import { HttpApiMiddleware, HttpServerRequest } from "@effect/platform"
import { Schema } from "effect"
import { PayloadTooLarge, UnsupportedMediaType } from "./ApiErrors.js"

/** The largest request body the service reads. */
export const maxRequestBodyBytes = 64 * 1024

/**
 * It provides the request the handler decodes: the same one, or, for a body streamed without a
 * declared length, one over the body it has already read within the limit.
 */
export class JsonBody extends HttpApiMiddleware.Tag<JsonBody>()("@petstore/api/JsonBody", {
  failure: Schema.Union(UnsupportedMediaType, PayloadTooLarge),
  provides: HttpServerRequest.HttpServerRequest
}) {}
