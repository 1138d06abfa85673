/**
 * The API process: reads its configuration, serves until SIGTERM or SIGINT, then shuts down
 * gracefully (stops accepting, lets in-flight requests finish, closes storage).
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { LogLevelConfig, OtlpEndpointConfig } from "@petstore/app-config"
import { JsonLogger, Tracing } from "@petstore/telemetry"
import { Cause, Config, Effect, Layer, References } from "effect"
import { describeFailure, teardown } from "./Failure.js"
import { ServerLive } from "./Server.js"

const main = Effect.flatMap(Config.all([LogLevelConfig, OtlpEndpointConfig]), ([level, endpoint]) =>
  Layer.launch(ServerLive).pipe(
    Effect.provideService(References.MinimumLogLevel, level),
    Tracing.withTracing({ serviceName: "petstore-api", endpoint })
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
