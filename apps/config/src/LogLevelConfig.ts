/**
 * The least severe log line the apps write: `LOG_LEVEL` (`All`, `Trace`, `Debug`, `Info`, `Warn`,
 * `Error`, `Fatal`, `Off`, any case), `Info` by default. Read alike by the API, its key CLI and the
 * worker.
 */
import { Config } from "effect"

export const LogLevelConfig = Config.LogLevel("LOG_LEVEL").pipe(Config.withDefault("Info"))
