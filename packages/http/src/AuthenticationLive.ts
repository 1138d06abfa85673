/**
 * The bearer-key check behind the `Authentication` middleware. It reads the raw `Authorization`
 * header itself: the platform's bearer decoder neither checks the scheme nor rejects a missing header.
 */
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Authentication, Unauthorized, Unavailable } from "@petstore/api"
import { ApiKeyRepository, authenticate, Sha256 } from "@petstore/domain"
import { Effect, Layer } from "effect"

const realm = 'Bearer realm="petstore"'

const challenge = (tokenPresented: boolean) =>
  HttpApp.appendPreResponseHandler((_request, response) =>
    Effect.succeed(
      HttpServerResponse.setHeader(
        response,
        "www-authenticate",
        tokenPresented ? `${realm}, error="invalid_token"` : realm
      )
    )
  )

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const keys = yield* ApiKeyRepository
    const sha256 = yield* Sha256
    return {
      apiKey: () =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          return yield* authenticate(request.headers.authorization).pipe(
            Effect.provideService(ApiKeyRepository, keys),
            Effect.provideService(Sha256, sha256)
          )
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
