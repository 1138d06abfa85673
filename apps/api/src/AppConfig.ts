/**
 * Everything the API process reads from its environment, decoded once at start-up.
 */
import { maxRequestDeadline } from "@petstore/domain"
import { Config, ConfigError, Duration, Either, LogLevel, Option, type Redacted } from "effect"

export type StorageChoice =
  /** `dataDir` keeps what is not in the database: the generated secret, the CA's files. */
  | { readonly _tag: "Postgres"; readonly url: Redacted.Redacted<string>; readonly dataDir: string }
  | { readonly _tag: "Embedded"; readonly dataDir: string }
  | { readonly _tag: "Memory" }

const storageKind = Config.literal("postgres", "embedded", "memory")("PETSTORE_STORAGE").pipe(Config.option)

/** `PETSTORE_STORAGE` wins; otherwise Postgres when `DATABASE_URL` is set, else the embedded store. */
export const StorageConfig: Config.Config<StorageChoice> = Config.all({
  kind: storageKind,
  url: Config.redacted("DATABASE_URL").pipe(Config.option),
  dataDir: Config.string("PETSTORE_DATA_DIR").pipe(Config.withDefault("./.data"))
}).pipe(
  Config.mapOrFail(({ kind, url, dataDir }) => {
    const chosen = Option.getOrElse(kind, () => (Option.isSome(url) ? "postgres" : "embedded"))
    if (chosen === "memory") return Either.right<StorageChoice>({ _tag: "Memory" })
    if (chosen === "embedded") return Either.right<StorageChoice>({ _tag: "Embedded", dataDir })
    return Option.isSome(url)
      ? Either.right<StorageChoice>({ _tag: "Postgres", url: url.value, dataDir })
      : Either.left(ConfigError.MissingData(["DATABASE_URL"], "PETSTORE_STORAGE=postgres needs DATABASE_URL"))
  })
)

export const ServerConfig = Config.all({
  port: Config.port("PORT").pipe(Config.withDefault(3000)),
  host: Config.string("HOST").pipe(Config.withDefault("0.0.0.0")),
  requestTimeout: Config.duration("PETSTORE_REQUEST_TIMEOUT").pipe(
    Config.validate({
      message: `must be more than 0 and at most ${Duration.format(maxRequestDeadline)} (half the Idempotency-Key in-flight lease)`,
      validation: (deadline) =>
        Duration.greaterThan(deadline, Duration.zero) &&
        Duration.lessThanOrEqualTo(deadline, maxRequestDeadline)
    }),
    Config.withDefault(Duration.seconds(10))
  ),
  shutdownGrace: Config.duration("PETSTORE_SHUTDOWN_GRACE").pipe(Config.withDefault(Duration.seconds(10)))
})

/** The serving edge's listeners for custom domains (0: any free port, as the tests use). */
export const EdgeConfig = Config.all({
  httpPort: Config.integer("PETSTORE_EDGE_HTTP_PORT").pipe(
    Config.validate({ message: "must be a port from 0 to 65535", validation: (n) => n >= 0 && n <= 65_535 }),
    Config.withDefault(8080)
  ),
  httpsPort: Config.integer("PETSTORE_EDGE_HTTPS_PORT").pipe(
    Config.validate({ message: "must be a port from 0 to 65535", validation: (n) => n >= 0 && n <= 65_535 }),
    Config.withDefault(8443)
  )
})

export const BootstrapKeyConfig = Config.redacted("PETSTORE_BOOTSTRAP_KEY").pipe(Config.option)

export const LogLevelConfig = Config.logLevel("LOG_LEVEL").pipe(Config.withDefault(LogLevel.Info))
