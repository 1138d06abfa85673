/**
 * The worker process: checks pending domains' DNS until SIGTERM or SIGINT, sharing the work with any
 * other worker on the same PostgreSQL through leases; stopping gives its leases back.
 */
import { hostname } from "node:os"
import { NodeRuntime } from "@effect/platform-node"
import { NodeDnsResolver } from "@petstore/dns"
import { domainCheckConfig, platformSettingsLayer, runDomainChecks } from "@petstore/domain"
import { PgMigrations, PgStore } from "@petstore/store-pg"
import { Cause, Config, Effect, Layer, Logger, LogLevel } from "effect"

/** Unique per process, readable in the database when a lease needs explaining. */
const holder = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`

const StorageLive = Layer.unwrapEffect(
  Effect.map(Config.redacted("DATABASE_URL"), (url) =>
    PgStore.layer.pipe(Layer.provide(PgMigrations.layer), Layer.provide(PgStore.clientLayer({ url })))
  )
)

const main = Effect.gen(function* () {
  const options = yield* domainCheckConfig(holder)
  const level = yield* Config.logLevel("LOG_LEVEL").pipe(Config.withDefault(LogLevel.Info))
  yield* Effect.logInfo(`petstore worker ${holder} checking domains (concurrency ${options.concurrency})`)
  return yield* runDomainChecks(options).pipe(
    Effect.onInterrupt(() => Effect.logInfo(`petstore worker ${holder} stopping; its leases are given back`)),
    Logger.withMinimumLogLevel(level)
  )
}).pipe(
  Effect.provide(Layer.mergeAll(StorageLive, NodeDnsResolver.layerConfig, platformSettingsLayer)),
  Effect.tapErrorCause((cause) =>
    Cause.isInterruptedOnly(cause)
      ? Effect.void
      : Effect.logError(`petstore worker stopped: ${Cause.squash(cause)}`)
  ),
  Effect.provide(Logger.json)
)

NodeRuntime.runMain(main, { disablePrettyLogger: true, disableErrorReporting: true })
