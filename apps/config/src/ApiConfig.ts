/**
 * What the API process alone reads from its environment (storage, its listener, the edge, rate
 * limits, the operator's key, the log level), decoded once at start-up.
 */

import { maxRequestDeadline } from "@petstore/catalogue"
import { OperatorApiKeyToken, type RateLimitOptions } from "@petstore/kernel"
import { ListenPort } from "@petstore/node-listener"
import { Config, Duration, Effect, Option, Redacted, Schema, SchemaIssue } from "effect"
import { dataDirectoryVariable, defaultDataDirectory } from "./DataDirectory.js"

export type StorageChoice =
  /** `dataDir` keeps what is not in the database: the generated secret, the CA's files. */
  | { readonly _tag: "Postgres"; readonly url: Redacted.Redacted<string>; readonly dataDir: string }
  | { readonly _tag: "Embedded"; readonly dataDir: string }
  | { readonly _tag: "Memory" }

const storageKind = Config.Literals(["postgres", "embedded", "memory"], "PETSTORE_STORAGE").pipe(
  Config.option
)

/** The failure of a variable that is missing although another variable's value needs it. */
const requiredBy = (name: string, message: string): Config.ConfigError =>
  new Config.ConfigError(
    new Schema.SchemaError(
      new SchemaIssue.Pointer([name], new SchemaIssue.MissingKey({ messageMissingKey: message }))
    )
  )

/** `PETSTORE_STORAGE` wins; otherwise Postgres when `DATABASE_URL` is set, else the embedded store. */
export const StorageConfig: Config.Config<StorageChoice> = Config.all({
  kind: storageKind,
  url: Config.Redacted("DATABASE_URL").pipe(Config.option),
  dataDir: Config.String(dataDirectoryVariable).pipe(Config.withDefault(defaultDataDirectory))
}).pipe(
  Config.mapEffect(({ kind, url, dataDir }): Effect.Effect<StorageChoice, Config.ConfigError> => {
    const chosen = Option.getOrElse(kind, () => (Option.isSome(url) ? "postgres" : "embedded"))
    if (chosen === "memory") return Effect.succeed({ _tag: "Memory" })
    if (chosen === "embedded") return Effect.succeed({ _tag: "Embedded", dataDir })
    return Option.isSome(url)
      ? Effect.succeed({ _tag: "Postgres", url: url.value, dataDir })
      : Effect.fail(requiredBy("DATABASE_URL", "PETSTORE_STORAGE=postgres needs DATABASE_URL"))
  })
)

const RequestDeadline = Schema.DurationFromString.check(
  Schema.makeFilter(
    (deadline: Duration.Duration) =>
      Duration.isGreaterThan(deadline, Duration.zero) &&
      Duration.isLessThanOrEqualTo(deadline, maxRequestDeadline),
    {
      message: `must be more than 0 and at most ${Duration.format(maxRequestDeadline)} (half the Idempotency-Key in-flight lease)`
    }
  )
)

export const ServerConfig = Config.all({
  port: Config.schema(ListenPort, "PORT").pipe(Config.withDefault(3000)),
  host: Config.String("HOST").pipe(Config.withDefault("0.0.0.0")),
  requestTimeout: Config.schema(RequestDeadline, "PETSTORE_REQUEST_TIMEOUT").pipe(
    Config.withDefault(Duration.seconds(10))
  ),
  shutdownGrace: Config.Duration("PETSTORE_SHUTDOWN_GRACE").pipe(Config.withDefault(Duration.seconds(10)))
})

const Count = Schema.Int.check(
  Schema.isBetween({ minimum: 1, maximum: 1_000_000 }, { message: "must be an integer from 1 to 1000000" })
)

const Period = Schema.DurationFromString.check(
  Schema.makeFilter(
    (period: Duration.Duration) =>
      Duration.isGreaterThanOrEqualTo(period, Duration.seconds(1)) &&
      Duration.isLessThanOrEqualTo(period, Duration.days(1)),
    { message: "must be from 1 second to 1 day" }
  )
)

/**
 * The serving edge's listeners for custom domains (0: any free port, as the tests use), how many
 * names it keeps decided in memory and for how long at most, and how many lookups of unknown names
 * one client address may cause per window.
 */
export const EdgeConfig = Config.all({
  httpPort: Config.schema(ListenPort, "PETSTORE_EDGE_HTTP_PORT").pipe(Config.withDefault(8080)),
  httpsPort: Config.schema(ListenPort, "PETSTORE_EDGE_HTTPS_PORT").pipe(Config.withDefault(8443)),
  cacheCapacity: Config.schema(Count, "PETSTORE_EDGE_CACHE_SIZE").pipe(Config.withDefault(10_000)),
  cacheTimeToLive: Config.schema(Period, "PETSTORE_EDGE_CACHE_TTL").pipe(
    Config.withDefault(Duration.seconds(60))
  ),
  unknownNameLimit: Config.schema(Count, "PETSTORE_EDGE_UNKNOWN_NAME_LIMIT").pipe(Config.withDefault(60)),
  unknownNameWindow: Config.schema(Period, "PETSTORE_EDGE_UNKNOWN_NAME_WINDOW").pipe(
    Config.withDefault(Duration.seconds(60))
  )
})

const rateLimitCount = (name: string, fallback: number) =>
  Config.schema(Count, name).pipe(Config.withDefault(fallback))

/**
 * `PETSTORE_RATE_LIMIT_PER_KEY` (default 10000) and `PETSTORE_RATE_LIMIT_PER_ADDRESS` (default 2000)
 * requests per `PETSTORE_RATE_LIMIT_WINDOW` (default 60 seconds): generous enough for any honest
 * client and its retries, low enough that one caller cannot take the service from the others.
 */
export const RateLimitConfig: Config.Config<RateLimitOptions> = Config.all({
  perKey: rateLimitCount("PETSTORE_RATE_LIMIT_PER_KEY", 10_000),
  perAddress: rateLimitCount("PETSTORE_RATE_LIMIT_PER_ADDRESS", 2_000),
  window: Config.schema(Period, "PETSTORE_RATE_LIMIT_WINDOW").pipe(Config.withDefault(Duration.seconds(60)))
})

/** The operator's key, never shown: refused at start when short or not a bearer token. */
export const BootstrapKeyConfig = Config.schema(OperatorApiKeyToken, "PETSTORE_BOOTSTRAP_KEY").pipe(
  Config.map(Redacted.make),
  Config.option
)

export const LogLevelConfig = Config.LogLevel("LOG_LEVEL").pipe(Config.withDefault("Info"))
