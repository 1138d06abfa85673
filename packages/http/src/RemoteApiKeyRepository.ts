/**
 * `ApiKeyRepository` reached through a running server's loopback key administration (see
 * `LocalApiKeyAdmin`): what the key CLI uses while that server owns the storage.
 */
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { ApiKeyRepository, StorageError } from "@petstore/kernel"
import { Effect, Layer, Option, Schema } from "effect"
import {
  type AdminEndpoint,
  AdminEndpoint as AdminEndpointSchema,
  adminEndpointFileName,
  InsertRequest,
  ListResponse,
  RevokeRequest,
  RevokeResponse
} from "./ApiKeyAdminProtocol.js"

const decodeEndpoint = Schema.decodeUnknownOption(AdminEndpointSchema)

/** Where the server owning `directory` serves key administration, if one does. */
export const findEndpoint = (directory: string): Effect.Effect<Option.Option<AdminEndpoint>> =>
  Effect.promise(() => readFile(join(directory, adminEndpointFileName), "utf8").catch(() => undefined)).pipe(
    Effect.map((text) => (text === undefined ? Option.none() : decodeEndpoint(text)))
  )

export const layer = (endpoint: AdminEndpoint): Layer.Layer<ApiKeyRepository> => {
  const call = (operation: string, method: string, path: string, body?: string) =>
    Effect.tryPromise({
      try: async () => {
        const response = await fetch(`http://127.0.0.1:${endpoint.port}${path}`, {
          method,
          headers: { authorization: `Bearer ${endpoint.token}`, "content-type": "application/json" },
          ...(body === undefined ? {} : { body })
        })
        if (!response.ok) throw new Error(`the running server answered ${response.status}`)
        return response.text()
      },
      catch: (cause) => new StorageError({ operation, cause })
    })

  const decodeFailure = (operation: string) => (cause: unknown) => new StorageError({ operation, cause })

  const list = call("RemoteApiKeyRepository.list", "GET", "/api-keys").pipe(
    Effect.flatMap((text) =>
      Schema.decodeEffect(ListResponse)(text).pipe(
        Effect.mapError(decodeFailure("RemoteApiKeyRepository.list"))
      )
    )
  )

  return Layer.succeed(ApiKeyRepository, {
    insert: (record) =>
      Schema.encodeEffect(InsertRequest)(record).pipe(
        Effect.mapError(decodeFailure("RemoteApiKeyRepository.insert")),
        Effect.flatMap((body) => call("RemoteApiKeyRepository.insert", "POST", "/api-keys", body)),
        Effect.asVoid
      ),
    findByHash: (hash) =>
      Effect.map(list, (records) => Option.fromNullishOr(records.find((r) => r.hash === hash))),
    list,
    revoke: (id, at) =>
      Schema.encodeEffect(RevokeRequest)({ id, at }).pipe(
        Effect.mapError(decodeFailure("RemoteApiKeyRepository.revoke")),
        Effect.flatMap((body) => call("RemoteApiKeyRepository.revoke", "POST", "/api-keys/revoke", body)),
        Effect.flatMap((text) =>
          Schema.decodeEffect(RevokeResponse)(text).pipe(
            Effect.mapError(decodeFailure("RemoteApiKeyRepository.revoke"))
          )
        ),
        Effect.map(({ revoked }) => revoked)
      )
  })
}
