/**
 * The worker process: checks pending domains' DNS and drives verified domains' certificates (orders,
 * polling, the 30-minute diagnosis, renewals) until SIGTERM or SIGINT, sharing the work with any other
 * worker on the same PostgreSQL through leases; stopping gives its leases back.
 */
import { hostname } from "node:os"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as CertificateAuthorityConfig from "@petstore/acme/CertificateAuthorityConfig"
import { NodeDnsResolver } from "@petstore/dns"
import { domainCheckConfig, platformSettingsLayer, runDomainChecks } from "@petstore/domain"
import { PgStore, PrivateKeySecret } from "@petstore/store-pg"
import { Tracing, WorkerMetrics } from "@petstore/telemetry"
import { Cause, Config, Effect, Layer, Logger, LogLevel, Option } from "effect"

/** Unique per process, readable in the database when a lease needs explaining. */
const holder = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`

/** The data directory keeps what is not in the database: the generated secret, the CA's files. */
const DataDirConfig = Config.string("PETSTORE_DATA_DIR").pipe(Config.withDefault("./.data"))

const StorageLive = Layer.unwrapEffect(
  Effect.map(Config.all([Config.redacted("DATABASE_URL"), DataDirConfig]), ([url, dataDir]) => {
    const storage = PgStore.migratedLayer(PgStore.clientLayer({ url }), PrivateKeySecret.cipherLayer(dataDir))
    return Layer.merge(
      storage,
      CertificateAuthorityConfig.issuerLayer(Option.some(dataDir)).pipe(Layer.provide(storage))
    )
  })
)

const main = Effect.gen(function* () {
  const options = yield* domainCheckConfig(holder)
  const level = yield* Config.logLevel("LOG_LEVEL").pipe(Config.withDefault(LogLevel.Info))
  const metrics = yield* WorkerMetrics.serve
  yield* Effect.logInfo(
    `petstore worker ${holder} checking domains and certificates (concurrency ${options.concurrency})`
  )
  if (Option.isSome(metrics.port))
    yield* Effect.logInfo(`worker metrics on http://0.0.0.0:${metrics.port.value}/metrics`)
  return yield* runDomainChecks({ ...options, onRound: metrics.recordRound }).pipe(
    Effect.onInterrupt(() => Effect.logInfo(`petstore worker ${holder} stopping; its leases are given back`)),
    Logger.withMinimumLogLevel(level),
    Tracing.withTracing("petstore-worker")
  )
}).pipe(
  Effect.scoped,
  Effect.provide(Layer.mergeAll(StorageLive, NodeDnsResolver.layerConfig, platformSettingsLayer)),
  Effect.tapErrorCause((cause) =>
    Cause.isInterruptedOnly(cause)
      ? Effect.void
      : Effect.logError(`petstore worker stopped: ${Cause.squash(cause)}`)
  ),
  Effect.provide(Logger.json)
)

NodeRuntime.runMain(main, { disablePrettyLogger: true, disableErrorReporting: true })
