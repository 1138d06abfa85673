/**
 * The API process: reads its configuration, serves until SIGTERM or SIGINT, then shuts down
 * gracefully (stops accepting, lets in-flight requests finish, closes storage).
 */
import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { LogLevelConfig } from "./AppConfig.js"
import { loggingLayer } from "./Logging.js"
import { ServerLive } from "./Server.js"

const main = Effect.flatMap(LogLevelConfig, (level) =>
  Layer.launch(ServerLive).pipe(Effect.provide(loggingLayer(level)))
)

NodeRuntime.runMain(main, { disablePrettyLogger: true })
