/**
 * The bearer-key check behind the `Authentication` middleware. It reads the raw `Authorization`
 * header itself: the platform's bearer decoder neither checks the scheme nor rejects a missing header.
 * A valid key's request takes a token from the key's bucket; a request without one from the client
 * address's bucket before it is refused, so guessing keys is limited too.
 */
import { HttpServerRequest } from "@effect/platform"
import { Authentication, Unauthorized, Unavailable } from "@petstore/api"
import {
  ApiKeyRepository,
  addressBucket,
  authenticate,
  keyBucket,
  RateLimits,
  Sha256
} from "@petstore/domain"
import { Effect, Layer, Option } from "effect"
import { RequestRateLimiter } from "./RequestRateLimiter.js"
import { appendResponseHeaders } from "./ResponseHeaders.js"

const realm = 'Bearer realm="petstore"'

const challenge = (tokenPresented: boolean) =>
  appendResponseHeaders({ "www-authenticate": tokenPresented ? `${realm}, error="invalid_token"` : realm })

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const keys = yield* ApiKeyRepository
    const sha256 = yield* Sha256
    const limits = yield* RateLimits
    const limiter = yield* RequestRateLimiter
    return {
      apiKey: () =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const caller = yield* authenticate(request.headers.authorization).pipe(
            Effect.provideService(ApiKeyRepository, keys),
            Effect.provideService(Sha256, sha256),
            Effect.tapErrorTag("Unauthenticated", () =>
              limiter.admit(
                addressBucket(
                  limits,
                  Option.getOrElse(request.remoteAddress, () => "unknown")
                )
              )
            )
          )
          yield* limiter.admit(keyBucket(limits, caller.keyId))
          return caller
        }).pipe(
          Effect.catchTags({
            Unauthenticated: (error) =>
              Effect.zipRight(
                challenge(error.tokenPresented),
                Effect.fail(
                  new Unauthorized({
                    code: "unauthorized",
                    message: error.tokenPresented
                      ? "the API key is not valid"
                      : "an API key is required: Authorization: Bearer <key>",
                    status: 401
                  })
                )
              ),
            StorageError: (error) =>
              Effect.zipRight(
                Effect.logWarning("API key lookup failed", error.cause),
                Effect.fail(
                  new Unavailable({
                    code: "unavailable",
                    message: "the service is temporarily unavailable",
                    status: 503
                  })
                )
              )
          })
        )
    }
  })
)
