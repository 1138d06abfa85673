/**
 * The storage the configuration chose, with its migrations run before anything uses it.
 */
import type { SqlClient } from "@effect/sql"
import {
  type ApiKeyRepository,
  domainCheckConfig,
  runDomainChecks,
  type StorageError
} from "@petstore/domain"
import { LocalApiKeyAdmin, RemoteApiKeyRepository } from "@petstore/http"
import { MemoryStore } from "@petstore/store-memory"
import { EmbeddedPostgres, PgMigrations, PgStore } from "@petstore/store-pg"
import { Effect, Layer, Option } from "effect"
import type { StorageChoice } from "./AppConfig.js"

export const storageLayer = (choice: StorageChoice) => {
  switch (choice._tag) {
    case "Memory":
      return MemoryStore.layer
    case "Postgres":
      return onPostgres(PgStore.clientLayer({ url: choice.url }))
    case "Embedded":
      return onPostgres(EmbeddedPostgres.clientLayer({ dataDirectory: choice.dataDir }))
  }
}

const onPostgres = <E, R>(client: Layer.Layer<SqlClient.SqlClient, E, R>) =>
  PgStore.layer.pipe(Layer.provide(PgMigrations.layer), Layer.provide(client))

/**
 * The API keys for the key CLI. The embedded database admits one process: while a server holds it,
 * the keys are reached through that server's loopback key administration instead.
 */
export const apiKeyStorageLayer = (
  choice: StorageChoice
): Layer.Layer<ApiKeyRepository, StorageError | EmbeddedPostgres.EmbeddedPostgresError> => {
  if (choice._tag !== "Embedded") return storageLayer(choice)
  return Layer.unwrapEffect(
    Effect.gen(function* (): Effect.fn.Return<
      Layer.Layer<ApiKeyRepository, StorageError | EmbeddedPostgres.EmbeddedPostgresError>
    > {
      const owner = yield* EmbeddedPostgres.lockOwner(choice.dataDir)
      if (Option.isNone(owner)) return storageLayer(choice)
      const endpoint = yield* RemoteApiKeyRepository.findEndpoint(choice.dataDir)
      if (Option.isNone(endpoint)) {
        return Layer.fail(
          new EmbeddedPostgres.EmbeddedPostgresError({
            message: `The embedded database in ${choice.dataDir} is held by process ${owner.value}, which offers no key administration; stop it and retry.`
          })
        )
      }
      return RemoteApiKeyRepository.layer(endpoint.value)
    })
  )
}

/**
 * What a server must run beside storage only it can open (embedded, memory): the key administration
 * for the CLI, and the domain checks a separate worker process would otherwise run.
 */
export const exclusiveStorageCompanions = (choice: StorageChoice) =>
  choice._tag === "Postgres"
    ? Layer.empty
    : Layer.mergeAll(
        choice._tag === "Embedded" ? LocalApiKeyAdmin.layer({ directory: choice.dataDir }) : Layer.empty,
        InProcessDomainChecks
      )

const InProcessDomainChecks = Layer.scopedDiscard(
  Effect.flatMap(domainCheckConfig(`api:${process.pid}`), (options) =>
    Effect.forkScoped(runDomainChecks(options))
  )
)
