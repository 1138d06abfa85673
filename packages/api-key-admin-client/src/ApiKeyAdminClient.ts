/**
 * `ApiKeyRepository` through a running server's key administration (`ApiKeyAdmin.ApiKeyAdminApi`, a
 * typed client over loopback HTTP): what the key CLI uses while that server owns the storage. Any
 * failure (the server gone, the secret refused, the server's storage failing, an answer that does not
 * decode) is a `StorageError` naming the operation.
 */
import { ApiKeyAdmin, type ApiKeyAdminEndpoint } from "@petstore/api"
import { ApiKeyRepository, StorageError } from "@petstore/kernel"
import { Effect, Layer, Option } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpApiClient from "effect/http-api/HttpApiClient"

const failed = (operation: string) => (cause: unknown) =>
  new StorageError({ operation: `ApiKeyAdminClient.${operation}`, cause })

export const layer = (endpoint: ApiKeyAdminEndpoint.AdminEndpoint): Layer.Layer<ApiKeyRepository> =>
  Layer.effect(
    ApiKeyRepository,
    Effect.gen(function* () {
      const { apiKeys } = yield* HttpApiClient.make(ApiKeyAdmin.ApiKeyAdminApi, {
        baseUrl: `http://127.0.0.1:${endpoint.port}`,
        transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(endpoint.token))
      })
      return ApiKeyRepository.of({
        insert: (record) => apiKeys.insert({ payload: record }).pipe(Effect.mapError(failed("insert"))),
        findByHash: (hash) =>
          apiKeys.findByHash({ params: { hash } }).pipe(
            Effect.map(({ key }) => Option.fromNullishOr(key)),
            Effect.mapError(failed("findByHash"))
          ),
        list: apiKeys.list().pipe(Effect.mapError(failed("list"))),
        revoke: (id, at) =>
          apiKeys.revoke({ payload: { id, at } }).pipe(
            Effect.map(({ revoked }) => revoked),
            Effect.mapError(failed("revoke"))
          )
      })
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))
