/**
 * The API process: reads its configuration, serves until SIGTERM or SIGINT, then shuts down
 * gracefully (stops accepting, lets in-flight requests finish, closes storage).
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Tracing } from "@petstore/telemetry"
import { Cause, Effect, Layer, Logger } from "effect"
import { LogLevelConfig } from "./AppConfig.js"
import { describeFailure } from "./Failure.js"
import { ServerLive } from "./Server.js"

const main = Effect.flatMap(LogLevelConfig, (level) =>
  Layer.launch(ServerLive).pipe(Logger.withMinimumLogLevel(level), Tracing.withTracing("petstore-api"))
).pipe(
  Effect.tapErrorCause((cause) =>
    Cause.isInterruptedOnly(cause)
      ? Effect.void
      : Effect.logError(`petstore stopped: ${describeFailure(cause)}`)
  ),
  Effect.provide(Logger.json)
)

NodeRuntime.runMain(main, { disablePrettyLogger: true, disableErrorReporting: true })
