/**
 * The worker process: checks pending domains' DNS, drives verified domains' certificates (orders,
 * polling, what stands in their way, the delay, renewals), rechecks proved claims daily and delivers
 * the projects' events to their webhooks, until SIGTERM or SIGINT, sharing the work with any other
 * worker on the same PostgreSQL through leases; stopping gives its leases back.
 */
import { hostname } from "node:os"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as CertificateAuthority from "@petstore/acme/CertificateAuthority"
import {
  AdapterConfig,
  CertificateDelayConfig,
  CustomDomainCheckConfig,
  DnsConfig,
  OtlpEndpointConfig,
  PlatformConfig,
  WebhookConfig,
  WorkerMetricsConfig
} from "@petstore/app-config"
import { CertificateDelay, PlatformSettings } from "@petstore/custom-domains"
import { NodeDnsResolver } from "@petstore/dns"
import { PgStore, PrivateKeySecret } from "@petstore/store-pg"
import { JsonLogger, MetricsListener, Tracing, WorkerMetrics } from "@petstore/telemetry"
import { NodeWebhookSender } from "@petstore/webhooks"
import { Cause, Config, Effect, Exit, Layer, Option, References } from "effect"
import { runCustomDomainChecks } from "./CustomDomainCheckLoop.js"

/** Unique per process, readable in the database when a lease needs explaining. */
const holder = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`

/** The data directory keeps what is not in the database: the generated secret, the CA's files. */
const DataDirConfig = Config.String("PETSTORE_DATA_DIR").pipe(Config.withDefault("./.data"))

/** Storage, the certificate authority and the DNS resolver, as configured. */
const AdaptersLive = Layer.unwrap(
  Effect.map(
    Config.all([Config.Redacted("DATABASE_URL"), DataDirConfig, AdapterConfig]),
    ([url, dataDir, { dns, acme, secretKey }]) => {
      const storage = PgStore.migratedLayer(
        PgStore.clientLayer({ url }),
        PrivateKeySecret.cipherLayer({ directory: dataDir, secret: secretKey })
      )
      return Layer.mergeAll(
        storage,
        CertificateAuthority.issuerLayer({ dataDirectory: dataDir, acme }).pipe(Layer.provide(storage)),
        NodeDnsResolver.layer(dns)
      )
    }
  )
)

const PlatformSettingsLive = Layer.unwrap(Effect.map(PlatformConfig, PlatformSettings.layer))

/** How long a certificate may take before it is `delayed` (`PETSTORE_CERTIFICATE_DELAY_AFTER`). */
const CertificateDelayLive = Layer.unwrap(
  Effect.map(CertificateDelayConfig, (delay) => Layer.succeed(CertificateDelay, delay))
)

/**
 * Deliveries as the operator allows them (`PETSTORE_WEBHOOK_ALLOW_PRIVATE`), each bounded by the
 * contract's timeout, which the loop's delivery leases outlast. Names are resolved on a c-ares channel
 * of their own, on the DNS checks' servers and timeouts: a receiver's slow name server holds no check.
 */
const WebhookSenderLive = Layer.unwrap(
  Effect.map(Config.all([WebhookConfig, DnsConfig]), ([{ allowPrivate }, dns]) =>
    NodeWebhookSender.layer({ allowPrivate, timeout: NodeWebhookSender.defaultTimeout }).pipe(
      Layer.provide(NodeDnsResolver.layer(dns))
    )
  )
)

const main = Effect.gen(function* () {
  const options = {
    ...(yield* CustomDomainCheckConfig),
    holder,
    sendTimeout: NodeWebhookSender.defaultTimeout
  }
  const level = yield* Config.LogLevel("LOG_LEVEL").pipe(Config.withDefault("Info"))
  const endpoint = yield* OtlpEndpointConfig
  const metrics = WorkerMetrics.make()
  const listener = yield* WorkerMetricsConfig
  if (Option.isSome(listener)) {
    const address = yield* MetricsListener.serve(listener.value, metrics.render)
    yield* Effect.logInfo(`worker metrics on ${MetricsListener.url(address)}`)
  }
  yield* Effect.logInfo(
    `petstore worker ${holder} checking domains, certificates and claims and delivering webhooks (concurrency ${options.concurrency})`
  )
  return yield* runCustomDomainChecks({ ...options, onRound: metrics.recordRound }).pipe(
    Effect.onInterrupt(() => Effect.logInfo(`petstore worker ${holder} stopping; its leases are given back`)),
    Effect.provideService(References.MinimumLogLevel, level),
    Tracing.withTracing({ serviceName: "petstore-worker", endpoint })
  )
}).pipe(
  Effect.scoped,
  Effect.provide(Layer.merge(AdaptersLive, PlatformSettingsLive)),
  // Provided outside storage, so read before it: a bad value stops the worker before it connects.
  Effect.provide(Layer.merge(CertificateDelayLive, WebhookSenderLive)),
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
