/**
 * What every operation that takes a JSON body carries: the key check first, then the body checks
 * (media type, size), and the two errors those can answer. Middleware added later runs first.
 */
import type { HttpApiEndpoint, HttpMethod } from "@effect/platform"
import { PayloadTooLarge, UnsupportedMediaType } from "./ApiErrors.js"
import { Authentication } from "./Authentication.js"
import { JsonBody } from "./JsonBody.js"

export const takesJsonBody = <
  Name extends string,
  Method extends HttpMethod.HttpMethod,
  Path,
  UrlParams,
  Payload,
  Headers,
  Success,
  Error,
  R,
  RE
>(
  endpoint: HttpApiEndpoint.HttpApiEndpoint<
    Name,
    Method,
    Path,
    UrlParams,
    Payload,
    Headers,
    Success,
    Error,
    R,
    RE
  >
) =>
  endpoint
    .addError(PayloadTooLarge)
    .addError(UnsupportedMediaType)
    .middleware(JsonBody)
    .middleware(Authentication)
