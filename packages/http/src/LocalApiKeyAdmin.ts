/**
 * The key administration (`ApiKeyAdmin.ApiKeyAdminApi`) that serves this process's `ApiKeyRepository`
 * to the key CLI, for storage only one process may open (the embedded database). It listens on
 * 127.0.0.1 at a free port and accepts a random secret that it writes, with the port, to a file only
 * the owner may read (`ApiKeyAdminEndpoint`), removed when it stops. Why a request failed is logged
 * here, never answered.
 */
import { randomBytes } from "node:crypto"
import { rename, rm, writeFile } from "node:fs/promises"
import { join } from "node:path"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { ApiKeyAdmin, ApiKeyAdminEndpoint } from "@petstore/api"
import { ApiKeyRepository, constantTimeEquals, type StorageError } from "@petstore/kernel"
import { NodeListener } from "@petstore/node-listener"
import { ByteSize, Effect, Layer, Option, Redacted } from "effect"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"

/** A key record is a few hundred bytes. */
const maxBodySize = ByteSize.bytes(16 * 1024)

const storageFailed = (error: StorageError) =>
  Effect.andThen(
    Effect.logWarning("key administration request failed", error),
    Effect.fail(new ApiKeyAdmin.KeyStorageFailed())
  )

const ApiKeysHandlers = HttpApiBuilder.group(ApiKeyAdmin.ApiKeyAdminApi, "apiKeys", (handlers) =>
  Effect.map(ApiKeyRepository, (keys) =>
    handlers
      .handle("list", () => Effect.catch(keys.list, storageFailed))
      .handle("findByHash", ({ params }) =>
        keys.findByHash(params.hash).pipe(
          Effect.map((found) => ({ key: Option.getOrNull(found) })),
          Effect.catch(storageFailed)
        )
      )
      .handle("insert", ({ payload }) => Effect.catch(keys.insert(payload), storageFailed))
      .handle("revoke", ({ payload }) =>
        keys.revoke(payload.id, payload.at).pipe(
          Effect.map((revoked) => ({ revoked })),
          Effect.catch(storageFailed)
        )
      )
  )
)

/** Lets through only requests that present `token`, compared in constant time. */
const secretLayer = (token: string) =>
  Layer.succeed(
    ApiKeyAdmin.AdminSecret,
    ApiKeyAdmin.AdminSecret.of({
      secret: (httpEffect, { credential }) =>
        constantTimeEquals(Redacted.value(credential), token)
          ? httpEffect
          : Effect.fail(new ApiKeyAdmin.AdminSecretRefused())
    })
  )

const administration = (token: string) =>
  HttpRouter.toHttpEffect(
    HttpApiBuilder.layer(ApiKeyAdmin.ApiKeyAdminApi).pipe(
      Layer.provide(ApiKeysHandlers),
      Layer.provide(secretLayer(token)),
      Layer.provide(NodeHttpServer.layerHttpServices)
    )
  )

/** Writes the endpoint file whole (a reader never sees half of it) and removes it when the scope closes. */
const endpointFile = (directory: string, endpoint: ApiKeyAdminEndpoint.AdminEndpoint) => {
  const file = join(directory, ApiKeyAdminEndpoint.adminEndpointFileName)
  return Effect.acquireRelease(
    Effect.promise(async () => {
      const temporary = `${file}.${process.pid}.tmp`
      await writeFile(temporary, JSON.stringify(endpoint), { mode: 0o600 })
      await rename(temporary, file)
    }),
    () => Effect.promise(() => rm(file, { force: true }))
  )
}

export const layer = (options: { readonly directory: string }) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const token = randomBytes(32).toString("base64url")
      const app = yield* administration(token)
      const { port } = yield* NodeListener.serve(
        Effect.provideService(app, HttpIncomingMessage.MaxBodySize, maxBodySize),
        {
          listener: "key administration",
          address: { host: "127.0.0.1", port: 0 },
          shutdownGrace: "5 seconds"
        }
      )
      yield* endpointFile(options.directory, { port, token })
    })
  )
