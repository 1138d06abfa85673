/**
 * The API process: reads its configuration, serves until SIGTERM or SIGINT, then shuts down
 * gracefully (stops accepting, lets in-flight requests finish, closes storage).
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { JsonLogger, Tracing } from "@petstore/telemetry"
import { Cause, Effect, Layer, References } from "effect"
import { LogLevelConfig } from "./AppConfig.js"
import { describeFailure, teardown } from "./Failure.js"
import { ServerLive } from "./Server.js"

const main = Effect.flatMap(LogLevelConfig, (level) =>
  Layer.launch(ServerLive).pipe(
    Effect.provideService(References.MinimumLogLevel, level),
    Tracing.withTracing("petstore-api")
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
