/**
 * The API server as one layer: storage (migrated), the operator's bootstrap key, the serving edge
 * for custom domains (HTTP and HTTPS), the metrics' listener when configured, the store of the
 * rate-limit counters (memory or Redis), then the API's HTTP server, which opens its port last.
 */
import type { ApiSettings } from "@petstore/app-config"
import { CertificateDelay } from "@petstore/certificates"
import { NodeDnsResolver } from "@petstore/dns"
import { type CustomDomainRepository, PlatformSettings, VerifyCooldown } from "@petstore/domains"
import { EdgeServer } from "@petstore/edge"
import {
  HttpMetrics,
  ListeningAddress,
  PetstoreHttpApiLive,
  PetstoreHttpServer,
  WebhookUrlPolicy
} from "@petstore/http"
import { runEventsPurge, runIdempotencyPurge } from "@petstore/jobs"
import { applyOperatorApiKey, defaultAccountName, Limits, RateLimits } from "@petstore/kernel"
import type { ListenError } from "@petstore/node-listener"
import { MemoryRateLimiterStore } from "@petstore/store-memory"
import { RedisRateLimiterStore } from "@petstore/store-redis"
import { MetricsListener } from "@petstore/telemetry"
import { Effect, Layer, Option, Redacted } from "effect"
import { exclusiveStorageCompanions, storageLayer } from "./Storage.js"

/** The operator's key is the one key of the `default` account: removing the variable revokes it. */
const bootstrapKeyLayer = (key: Option.Option<Redacted.Redacted<string>>) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const { accepted, revoked } = yield* applyOperatorApiKey(
        defaultAccountName,
        Option.map(key, Redacted.value)
      )
      if (revoked.length > 0)
        yield* Effect.logInfo(
          `revoked the earlier bootstrap key: ${revoked.map((record) => record.id).join(", ")} (account default)`
        )
      if (accepted) yield* Effect.logInfo("the bootstrap key is accepted (account default)")
      else if (Option.isSome(key))
        yield* Effect.logWarning(
          "PETSTORE_BOOTSTRAP_KEY names a key revoked earlier: it stays revoked, choose a new one"
        )
    })
  )

/**
 * The metrics on a listener of their own, before the public port opens: a port in use stops the
 * start. Not configured, they are recorded and served nowhere.
 */
const metricsListenerLayer = (
  listener: Option.Option<MetricsListener.MetricsListenerOptions>
): Layer.Layer<never, ListenError, HttpMetrics.HttpMetrics | CustomDomainRepository> =>
  Option.match(listener, {
    onNone: () => Layer.empty,
    onSome: (options) =>
      Layer.effectDiscard(
        Effect.flatMap(MetricsListener.serve(options, HttpMetrics.render), (address) =>
          Effect.logInfo(`petstore metrics on ${MetricsListener.url(address)}`)
        )
      )
  })

/**
 * Where the rate-limit counters live: in the Redis `REDIS_URL` names, so that every replica draws from
 * the same buckets, else in this process's memory.
 */
const rateLimitStoreLayer = (redisUrl: ApiSettings["redisUrl"]) =>
  Option.match(redisUrl, {
    onNone: () => MemoryRateLimiterStore.layer,
    onSome: (url) => RedisRateLimiterStore.layer({ url })
  })

/** Every server forgets expired idempotency keys; replicas' purges skip the rows another is deleting. */
const IdempotencyPurgeLive = Layer.effectDiscard(Effect.forkScoped(runIdempotencyPurge()))

/**
 * Every server forgets the events past their retention. The API runs it and not the worker: every
 * deployment runs an API on the storage a worker would share, so one more purger adds nothing.
 */
const EventsPurgeLive = Layer.effectDiscard(Effect.forkScoped(runEventsPurge()))

/** The server as `config` (the API's configuration, decoded by the process before anything opens) says. */
export const serverLayer = (config: ApiSettings) => {
  const { server, storage, adapters, webhooks } = config
  // The edge is a second front door: when its ports are taken, the API keeps serving (logged loudly).
  const edgeLive = Layer.effectDiscard(
    Effect.flatMap(EdgeServer.EdgeAddresses, ({ http, https }) =>
      Effect.logInfo(
        `edge serving custom domains on http://${http.host}:${http.port} and https://${https.host}:${https.port}`
      )
    )
  ).pipe(
    Layer.provide(EdgeServer.layer({ host: server.host, ...config.edge })),
    Layer.catch((error) =>
      Layer.effectDiscard(Effect.logError(`the edge is not serving custom domains: ${error.message}`))
    )
  )
  const announce = Layer.effectDiscard(
    Effect.flatMap(ListeningAddress, ({ host, port }) =>
      Effect.logInfo(
        `petstore listening on http://${host}:${port} (storage: ${storage._tag.toLowerCase()})`
      ).pipe(Effect.andThen(Effect.addFinalizer(() => Effect.logInfo("petstore shutting down"))))
    )
  )
  return announce.pipe(
    Layer.provideMerge(PetstoreHttpServer({ ...server, settings: "PORT, HOST" })),
    Layer.provide(metricsListenerLayer(config.metrics)),
    Layer.provide(
      Layer.mergeAll(
        PetstoreHttpApiLive,
        bootstrapKeyLayer(config.bootstrapKey),
        IdempotencyPurgeLive,
        EventsPurgeLive,
        edgeLive,
        exclusiveStorageCompanions(config)
      )
    ),
    Layer.provide(storageLayer(storage, adapters.secretKey)),
    Layer.provide(
      Layer.mergeAll(
        NodeDnsResolver.layer(adapters.dns),
        PlatformSettings.layer(config.platform),
        Layer.succeed(CertificateDelay, config.certificateDelay),
        Layer.succeed(VerifyCooldown, config.verifyCooldown),
        Layer.succeed(Limits, config.limits),
        // The URLs the API accepts are those its deliveries (here or in a worker) may reach.
        Layer.succeed(WebhookUrlPolicy, { allowPrivate: webhooks.allowPrivate }),
        RateLimits.layer(config.rateLimits),
        rateLimitStoreLayer(config.redisUrl)
      )
    )
  )
}
