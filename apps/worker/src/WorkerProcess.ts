/**
 * The worker process: checks pending domains' DNS, drives verified domains' certificates (orders,
 * polling, what stands in their way, the delay, renewals), rechecks proved claims daily and delivers
 * the projects' events to their webhooks, until SIGTERM or SIGINT, sharing the work with any other
 * worker on the same PostgreSQL through leases; stopping gives its leases back.
 */
import { hostname } from "node:os"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as CertificateAuthority from "@petstore/acme/CertificateAuthority"
import { WorkerConfig, type WorkerSettings } from "@petstore/app-config"
import { CertificateDelay } from "@petstore/certificates"
import { NodeDnsResolver } from "@petstore/dns"
import { PlatformSettings } from "@petstore/domains"
import { runCustomDomainChecks } from "@petstore/jobs"
import { PgStore, PrivateKeySecret } from "@petstore/store-pg"
import { JsonLogger, MetricsListener, Tracing, WorkerMetrics } from "@petstore/telemetry"
import { NodeWebhookSender } from "@petstore/webhook-sender"
import { Cause, Effect, Exit, Layer, Option, References } from "effect"

/** Unique per process, readable in the database when a lease needs explaining. */
const holder = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`

/**
 * Storage, the certificate authority and the DNS resolver, as configured. The data directory keeps
 * what is not in the database: the generated secret, the CA's files.
 */
const adaptersLayer = ({ adapters: { acme, dns, secretKey }, storage: { dataDir, url } }: WorkerSettings) => {
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

/**
 * Deliveries as the operator allows them (`PETSTORE_WEBHOOK_ALLOW_PRIVATE`), each bounded by the
 * contract's timeout, which the loop's delivery leases outlast. Names are resolved on a c-ares channel
 * of their own, on the DNS checks' servers and timeouts: a receiver's slow name server holds no check.
 */
const webhookSenderLayer = ({ adapters: { dns }, webhooks: { allowPrivate } }: WorkerSettings) =>
  NodeWebhookSender.layer({ allowPrivate, timeout: NodeWebhookSender.defaultTimeout }).pipe(
    Layer.provide(NodeDnsResolver.layer(dns))
  )

/** The worker as `config` (read whole before anything is opened) says, until interrupted. */
const work = (config: WorkerSettings) =>
  Effect.gen(function* () {
    const metrics = WorkerMetrics.make()
    if (Option.isSome(config.metrics)) {
      const address = yield* MetricsListener.serve(config.metrics.value, metrics.render)
      yield* Effect.logInfo(`worker metrics on ${MetricsListener.url(address)}`)
    }
    yield* Effect.logInfo(
      `petstore worker ${holder} checking domains, certificates and claims and delivering webhooks (concurrency ${config.checks.concurrency})`
    )
    const options = { ...config.checks, holder, sendTimeout: NodeWebhookSender.defaultTimeout }
    return yield* runCustomDomainChecks({ ...options, onRound: metrics.recordRound }).pipe(
      Effect.onInterrupt(() =>
        Effect.logInfo(`petstore worker ${holder} stopping; its leases are given back`)
      ),
      Effect.provideService(References.MinimumLogLevel, config.logLevel),
      Tracing.withTracing({ serviceName: "petstore-worker", endpoint: config.otlpEndpoint })
    )
  }).pipe(
    Effect.scoped,
    Effect.provide(Layer.merge(adaptersLayer(config), PlatformSettings.layer(config.platform))),
    Effect.provide(
      Layer.merge(Layer.succeed(CertificateDelay, config.certificateDelay), webhookSenderLayer(config))
    )
  )

// The configuration is read whole first: a bad value stops the worker before it connects. Its type is
// stated: inferred, TypeScript gave its requirements as `any` on the build's smaller program.
const main: Effect.Effect<void, unknown> = Effect.flatMap(WorkerConfig, work).pipe(
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
