/**
 * The bearer-key check behind the `Authentication` middleware. It reads the raw `Authorization`
 * header itself: the platform's bearer decoder does not tell a missing header from another scheme.
 * A valid key's request takes a token from the key's bucket; a request without one from the client
 * address's bucket before it is refused, so guessing keys is limited too.
 *
 * The check is a plain function of the request (`makeRequestAdmission`), deciding the caller or the
 * refusal and the headers either answer carries, so a route outside `HttpApi` runs exactly the same
 * one and puts the headers on the response it builds; the middleware hands them to `HttpApi`'s
 * response as pre-response headers.
 */
import {
  Authentication,
  apiError,
  CurrentCaller,
  type RateLimited,
  Unauthorized,
  type Unavailable
} from "@petstore/api"
import {
  ApiKeyRepository,
  addressBucket,
  authenticateWith,
  type Caller,
  keyBucket,
  RateLimits,
  Sha256,
  type StorageError
} from "@petstore/kernel"
import { Effect, Layer, Option } from "effect"
import { HttpServerRequest } from "effect/http/HttpServerRequest"
import { prebuiltError, type Refusal } from "./ErrorResponse.js"
import { RequestRateLimiter } from "./RequestRateLimiter.js"
import { appendResponseHeaders, noHeaders, type ResponseHeaders } from "./ResponseHeaders.js"
import { temporarilyUnavailable } from "./StorageUnavailable.js"

const challengeWithoutToken = 'Bearer realm="petstore"'
const challengeInvalidToken = `${challengeWithoutToken}, error="invalid_token"`

const missingKey = prebuiltError(
  apiError(Unauthorized, "unauthorized", "an API key is required: Authorization: Bearer <key>")
)
const invalidKey = prebuiltError(apiError(Unauthorized, "unauthorized", "the API key is not valid"))

const unknownAddress = () => "unknown"

const unavailable: Refusal<Unavailable> = { error: temporarilyUnavailable, headers: noHeaders }

const lookupFailed = (error: StorageError) =>
  Effect.andThen(Effect.logWarning("API key lookup failed", error.cause), Effect.fail(unavailable))

/** A request that passed the key and rate checks: who calls, and the headers of its answer. */
export interface Admitted {
  readonly caller: Caller
  readonly headers: ResponseHeaders
}

/** Checks one request's key and rate limit: the caller, or the refusal to answer with. */
export type RequestAdmission = (
  request: HttpServerRequest
) => Effect.Effect<Admitted, Refusal<Unauthorized | RateLimited | Unavailable>>

export const makeRequestAdmission: Effect.Effect<
  RequestAdmission,
  never,
  ApiKeyRepository | RateLimits | RequestRateLimiter
> = Effect.gen(function* () {
  const authenticate = authenticateWith(yield* ApiKeyRepository, yield* Sha256)
  const limits = yield* RateLimits
  const limiter = yield* RequestRateLimiter

  // The refusal takes a token from the client address's bucket first: a 429 when it is empty.
  const refuse = (request: HttpServerRequest, tokenPresented: boolean) =>
    Effect.flatMap(
      limiter.take(addressBucket(limits, Option.getOrElse(request.remoteAddress, unknownAddress))),
      (rateHeaders) =>
        Effect.fail({
          error: tokenPresented ? invalidKey : missingKey,
          headers: {
            "www-authenticate": tokenPresented ? challengeInvalidToken : challengeWithoutToken,
            ...rateHeaders
          }
        })
    )

  const admitted = (caller: Caller) =>
    Effect.map(limiter.take(keyBucket(limits, caller.keyId)), (headers): Admitted => ({ caller, headers }))

  return (request) => {
    const authorization = request.headers.authorization
    // No header at all, the commonest refusal: `authenticate` could only answer that no token was
    // presented, so the refusal starts here, without a failure to make and match first.
    if (authorization === undefined) return refuse(request, false)
    return Effect.matchEffect(authenticate(authorization), {
      onSuccess: admitted,
      onFailure: (error): Effect.Effect<never, Refusal<Unauthorized | RateLimited | Unavailable>> =>
        error._tag === "Unauthenticated" ? refuse(request, error.tokenPresented) : lookupFailed(error)
    })
  }
})

/** Checks one request's key and rate limit: the caller, or the error body to answer with. */
export type RequestAuthenticator = (
  request: HttpServerRequest
) => Effect.Effect<Caller, Unauthorized | RateLimited | Unavailable>

/** `makeRequestAdmission` for `HttpApi`: the headers go on the current request's response. */
export const makeRequestAuthenticator: Effect.Effect<
  RequestAuthenticator,
  never,
  ApiKeyRepository | RateLimits | RequestRateLimiter
> = Effect.map(
  makeRequestAdmission,
  (admit) => (request) =>
    Effect.matchEffect(admit(request), {
      onSuccess: ({ caller, headers }) => Effect.as(appendResponseHeaders(headers), caller),
      onFailure: ({ error, headers }) => Effect.andThen(appendResponseHeaders(headers), Effect.fail(error))
    })
)

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.map(makeRequestAuthenticator, (authenticateRequest) =>
    Authentication.of({
      apiKey: (httpEffect) =>
        Effect.flatMap(HttpServerRequest, (request) =>
          Effect.flatMap(authenticateRequest(request), (caller) =>
            Effect.provideService(httpEffect, CurrentCaller, caller)
          )
        )
    })
  )
)
