/**
 * The API server as one layer: storage (migrated), the operator's bootstrap key, then the HTTP server,
 * which opens its port last.
 */
import { NodeDnsResolver } from "@petstore/dns"
import { defaultAccountName, platformSettingsLayer, registerOperatorApiKey } from "@petstore/domain"
import { ListeningAddress, PetstoreHttpApiLive, PetstoreHttpServer } from "@petstore/http"
import { Effect, Layer, Option, Redacted } from "effect"
import { BootstrapKeyConfig, ServerConfig, StorageConfig } from "./AppConfig.js"
import { exclusiveStorageCompanions, storageLayer } from "./Storage.js"

const BootstrapKeyLive = Layer.effectDiscard(
  Effect.flatMap(BootstrapKeyConfig, (key) =>
    Option.match(key, {
      onNone: () => Effect.void,
      onSome: (token) =>
        registerOperatorApiKey(defaultAccountName, Redacted.value(token)).pipe(
          Effect.zipRight(Effect.logInfo("the bootstrap key is accepted (account default)"))
        )
    })
  )
)

export const ServerLive = Layer.unwrapEffect(
  Effect.gen(function* () {
    const server = yield* ServerConfig
    const storage = yield* StorageConfig
    const announce = Layer.scopedDiscard(
      Effect.flatMap(ListeningAddress, ({ host, port }) =>
        Effect.logInfo(
          `petstore listening on http://${host}:${port} (storage: ${storage._tag.toLowerCase()})`
        ).pipe(Effect.zipRight(Effect.addFinalizer(() => Effect.logInfo("petstore shutting down"))))
      )
    )
    return announce.pipe(
      Layer.provideMerge(PetstoreHttpServer(server)),
      Layer.provide(
        Layer.mergeAll(PetstoreHttpApiLive, BootstrapKeyLive, exclusiveStorageCompanions(storage))
      ),
      Layer.provide(storageLayer(storage)),
      Layer.provide(Layer.merge(NodeDnsResolver.layerConfig, platformSettingsLayer))
    )
  })
)
