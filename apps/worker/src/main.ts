/**
 * The worker process: checks pending domains' DNS and drives verified domains' certificates (orders,
 * polling, the 30-minute diagnosis, renewals) until SIGTERM or SIGINT, sharing the work with any other
 * worker on the same PostgreSQL through leases; stopping gives its leases back.
 */
import { hostname } from "node:os"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as CertificateAuthorityConfig from "@petstore/acme/CertificateAuthorityConfig"
import { PlatformConfig } from "@petstore/app-config"
import { PlatformSettings } from "@petstore/custom-domains"
import { NodeDnsResolver } from "@petstore/dns"
import { PgStore, PrivateKeySecret } from "@petstore/store-pg"
import { JsonLogger, MetricsListener, Tracing, WorkerMetrics } from "@petstore/telemetry"
import { Cause, Config, Effect, Exit, Layer, Option, References } from "effect"
import { CustomDomainCheckConfig, runCustomDomainChecks } from "./CustomDomainCheckLoop.js"

/** Unique per process, readable in the database when a lease needs explaining. */
const holder = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`

/** The data directory keeps what is not in the database: the generated secret, the CA's files. */
const DataDirConfig = Config.String("PETSTORE_DATA_DIR").pipe(Config.withDefault("./.data"))

const StorageLive = Layer.unwrap(
  Effect.map(Config.all([Config.Redacted("DATABASE_URL"), DataDirConfig]), ([url, dataDir]) => {
    const storage = PgStore.migratedLayer(PgStore.clientLayer({ url }), PrivateKeySecret.cipherLayer(dataDir))
    return Layer.merge(
      storage,
      CertificateAuthorityConfig.issuerLayer(Option.some(dataDir)).pipe(Layer.provide(storage))
    )
  })
)

const PlatformSettingsLive = Layer.unwrap(Effect.map(PlatformConfig, PlatformSettings.layer))

const main = Effect.gen(function* () {
  const options = yield* CustomDomainCheckConfig(holder)
  const level = yield* Config.LogLevel("LOG_LEVEL").pipe(Config.withDefault("Info"))
  const metrics = WorkerMetrics.make()
  // `PETSTORE_WORKER_METRICS_PORT` is the variable's name before the API's metrics had a listener too.
  const listener = yield* MetricsListener.config("PETSTORE_WORKER_METRICS_PORT")
  if (Option.isSome(listener)) {
    const address = yield* MetricsListener.serve(listener.value, metrics.render)
    yield* Effect.logInfo(`worker metrics on ${MetricsListener.url(address)}`)
  }
  yield* Effect.logInfo(
    `petstore worker ${holder} checking domains and certificates (concurrency ${options.concurrency})`
  )
  return yield* runCustomDomainChecks({ ...options, onRound: metrics.recordRound }).pipe(
    Effect.onInterrupt(() => Effect.logInfo(`petstore worker ${holder} stopping; its leases are given back`)),
    Effect.provideService(References.MinimumLogLevel, level),
    Tracing.withTracing("petstore-worker")
  )
}).pipe(
  Effect.scoped,
  Effect.provide(Layer.mergeAll(StorageLive, NodeDnsResolver.layerConfig, PlatformSettingsLive)),
  Effect.tapCause((cause) =>
    Cause.hasInterruptsOnly(cause)
      ? Effect.void
      : Effect.logError(`petstore worker stopped: ${Cause.squash(cause)}`)
  ),
  Effect.provide(JsonLogger.layer)
)

NodeRuntime.runMain(main, {
  disableErrorReporting: true,
  // SIGTERM and SIGINT are the way a worker is stopped: a clean exit (0), not Effect 4's 130.
  teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause) ? 0 : 1)
})
