/**
 * What every operation that takes a JSON body carries: the key check first, then the body checks
 * (size, media type, JSON syntax), whose errors come with the `JsonBody` middleware. Middleware added
 * later runs first.
 */
import type { Schema } from "effect"
import type { HttpMethod } from "effect/http/HttpMethod"
import type * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import { Authentication } from "./Authentication.js"
import { JsonBody } from "./JsonBody.js"

export const takesJsonBody = <
  Identifier extends string,
  Method extends HttpMethod,
  Path extends string,
  Params extends Schema.Top,
  Query extends Schema.Top,
  Payload extends Schema.Top,
  Headers extends Schema.Top,
  Success extends Schema.Top,
  Error extends Schema.Top,
  Middleware,
  MiddlewareServices
>(
  endpoint: HttpApiEndpoint.HttpApiEndpoint<
    Identifier,
    Method,
    Path,
    Params,
    Query,
    Payload,
    Headers,
    Success,
    Error,
    Middleware,
    MiddlewareServices
  >
) => endpoint.middleware(JsonBody).middleware(Authentication)
