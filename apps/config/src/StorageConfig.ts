/**
 * Where the apps keep their data, as they read it: the API (and its key CLI) chooses among
 * PostgreSQL, the embedded PostgreSQL and memory; the worker always runs on PostgreSQL. Both keep in
 * the data directory what is not in the database (the generated secret, the CA's files).
 */
import { Config, Effect, Option, type Redacted, Schema, SchemaIssue } from "effect"
import { dataDirectoryVariable, defaultDataDirectory } from "./DataDirectory.js"

export type StorageChoice =
  /** `dataDir` keeps what is not in the database: the generated secret, the CA's files. */
  | { readonly _tag: "Postgres"; readonly url: Redacted.Redacted<string>; readonly dataDir: string }
  | { readonly _tag: "Embedded"; readonly dataDir: string }
  | { readonly _tag: "Memory" }

/** `PETSTORE_DATA_DIR`, `./.data` by default. */
export const DataDirectoryConfig: Config.Config<string> = Config.String(dataDirectoryVariable).pipe(
  Config.withDefault(defaultDataDirectory)
)

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

/** The API's: `PETSTORE_STORAGE` wins; otherwise Postgres when `DATABASE_URL` is set, else the embedded store. */
export const StorageConfig: Config.Config<StorageChoice> = Config.all({
  kind: storageKind,
  url: Config.Redacted("DATABASE_URL").pipe(Config.option),
  dataDir: DataDirectoryConfig
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

export interface WorkerStorage {
  readonly url: Redacted.Redacted<string>
  readonly dataDir: string
}

/** The worker's: the PostgreSQL at `DATABASE_URL`, which it needs, and the data directory. */
export const WorkerStorageConfig: Config.Config<WorkerStorage> = Config.all({
  url: Config.Redacted("DATABASE_URL"),
  dataDir: DataDirectoryConfig
})
