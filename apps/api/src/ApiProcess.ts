/**
 * The API process: reads its configuration, serves until SIGTERM or SIGINT, then shuts down
 * gracefully (stops accepting, lets in-flight requests finish, closes storage).
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { ApiConfig } from "@petstore/app-config"
import { JsonLogger, Tracing } from "@petstore/telemetry"
import { Cause, Effect, Layer, References } from "effect"
import { describeFailure, teardown } from "./Failure.js"
import { serverLayer } from "./Server.js"

/** The configuration is read whole first: a bad value stops the process before anything is opened. */
const main = Effect.flatMap(ApiConfig, (config) =>
  Layer.launch(serverLayer(config)).pipe(
    Effect.provideService(References.MinimumLogLevel, config.logLevel),
    Tracing.withTracing({ serviceName: "petstore-api", endpoint: config.otlpEndpoint })
  )
).pipe(
  Effect.tapCause((cause) =>
    Cause.hasInterruptsOnly(cause)
      ? Effect.void
      : Effect.logError(`petstore stopped: ${describeFailure(cause)}`)
  ),
  Effect.provide(JsonLogger.layer)
)

NodeRuntime.runMain(main, { disableErrorReporting: true, teardown })
