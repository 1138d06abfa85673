/**
 * An embedded PostgreSQL for running without a database server: PGlite (PostgreSQL compiled to
 * WebAssembly) persisted in a data directory, reached in process through protocol streams that the
 * ordinary PostgreSQL store (@effect/sql-pg) connects with, so it runs on it unchanged.
 *
 * Nothing listens: no TCP port, no Unix socket, so no other process or local user can connect (a
 * loopback port would let any of them, and whoever connected first would own the database). The
 * data directory is made private (0700) before PGlite writes its files into it, and the files are
 * private too (0600): the process's umask is made private first, and once PGlite has opened the
 * database the modes it set itself (0666, on the files it unpacks) are taken back.
 *
 * PGlite is one single-user backend. The client uses a pool of exactly one connection that it never
 * closes while idle (`clientLayer` does so): statements of concurrent requests then queue in the
 * pool, and a transaction holds the connection until it ends. A lock file keeps two processes (or two
 * layers) from opening the same data directory, which PGlite itself does not prevent.
 */

import { open, readFile, unlink } from "node:fs/promises"
import { join, resolve } from "node:path"
import type { Duplex } from "node:stream"
import type * as PgClient from "@effect/sql-pg/PgClient"
import type { PGlite } from "@electric-sql/pglite"
import type { StorageError } from "@petstore/kernel"
import { Thrown } from "@petstore/thrown"
import { Data, Duration, Effect, Layer, Option, type Scope } from "effect"
import type { SqlClient } from "effect/sql"
import { connectedClientLayer } from "./internal/connectedClientLayer.js"
import { Invalidation } from "./internal/Invalidation.js"
import * as PGliteConnector from "./internal/PGliteConnector.js"
import * as PrivateDirectory from "./PrivateDirectory.js"

export interface Options {
  /**
   * Where the database lives; created when missing, reused (with its data) when present, made
   * private (0700) either way (see `PrivateDirectory.ensure`).
   */
  readonly dataDirectory: string
  /** Logs every protocol message of PGlite to the console. */
  readonly debug?: boolean
}

export interface EmbeddedPostgres {
  /**
   * Opens a connection to the database: a stream speaking the PostgreSQL protocol, in process (what
   * the `stream` option of @effect/sql-pg takes).
   */
  readonly connect: () => Duplex
  /** The absolute data directory. */
  readonly dataDirectory: string
}

export class EmbeddedPostgresError extends Data.TaggedError("EmbeddedPostgresError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

/** Name of the lock file inside the data directory; it holds the id of the owning process. */
export const lockFileName = "petstore-embedded.lock"

const fail = (message: string) => (cause: unknown) =>
  new EmbeddedPostgresError({ message: `${message}: ${Thrown.messageOf(cause)}`, cause })

const errorCode = (cause: unknown): string | undefined =>
  typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string"
    ? cause.code
    : undefined

const processIsAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (cause) {
    return errorCode(cause) === "EPERM"
  }
}

type LockAttempt =
  | { readonly _tag: "Acquired" }
  | { readonly _tag: "HeldBy"; readonly pid: number | undefined }

const tryCreateLock = (path: string): Promise<LockAttempt> =>
  open(path, "wx").then(
    async (file) => {
      await file.writeFile(String(process.pid)).finally(() => file.close())
      return { _tag: "Acquired" } as const
    },
    async (cause: unknown) => {
      if (errorCode(cause) !== "EEXIST") return Promise.reject(cause)
      const owner = Number.parseInt(await readFile(path, "utf8").catch(() => ""), 10)
      return { _tag: "HeldBy", pid: Number.isSafeInteger(owner) ? owner : undefined } as const
    }
  )

/** The id of another live process that holds the data directory's lock, if one does. */
export const lockOwner = (dataDirectory: string): Effect.Effect<Option.Option<number>> =>
  Effect.promise(() => readFile(join(resolve(dataDirectory), lockFileName), "utf8").catch(() => "")).pipe(
    Effect.map((text) => {
      const pid = Number.parseInt(text, 10)
      return Number.isSafeInteger(pid) && pid !== process.pid && processIsAlive(pid)
        ? Option.some(pid)
        : Option.none()
    })
  )

/** Takes the data directory's lock; a lock left by a process that no longer runs is taken over. */
const lockDataDirectory = (directory: string): Effect.Effect<void, EmbeddedPostgresError, Scope.Scope> => {
  const path = join(directory, lockFileName)
  const acquire = Effect.tryPromise({
    try: async () => {
      const first = await tryCreateLock(path)
      if (first._tag === "Acquired" || (first.pid !== undefined && processIsAlive(first.pid))) return first
      await unlink(path).catch(() => undefined)
      return tryCreateLock(path)
    },
    catch: fail(`Could not lock the embedded database directory ${directory}`)
  }).pipe(
    Effect.filterOrFail(
      (attempt) => attempt._tag === "Acquired",
      (attempt) =>
        new EmbeddedPostgresError({
          message:
            `The embedded database directory ${directory} is in use` +
            (attempt._tag === "HeldBy" && attempt.pid !== undefined ? ` by process ${attempt.pid}` : "") +
            ` (lock file ${path}). Stop that process, or remove the lock file if it is not running.`
        })
    )
  )
  return Effect.acquireRelease(acquire, () => Effect.promise(() => unlink(path).catch(() => undefined))).pipe(
    Effect.asVoid
  )
}

const openPGlite = (
  directory: string,
  debug: boolean
): Effect.Effect<PGlite, EmbeddedPostgresError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const { PGlite } = await import("@electric-sql/pglite")
        return PGlite.create(directory, debug ? { debug: 1 } : {})
      },
      catch: fail(`Could not open the embedded database in ${directory}`)
    }),
    (db) => Effect.promise(() => db.close()).pipe(Effect.ignore)
  )

const connectTo = (db: PGlite): Effect.Effect<PGliteConnector.PGliteConnector, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => PGliteConnector.make(db)),
    (connector) => Effect.promise(() => connector.close())
  )

/**
 * Opens (or creates) the database in the data directory (made private first) until the scope
 * closes; then its connections end, PGlite closes and the lock is released.
 */
export const start = (
  options: Options
): Effect.Effect<EmbeddedPostgres, EmbeddedPostgresError, Scope.Scope> =>
  Effect.gen(function* () {
    const dataDirectory = yield* PrivateDirectory.ensure(options.dataDirectory).pipe(
      Effect.mapError((error) => new EmbeddedPostgresError({ message: error.message, cause: error.cause }))
    )
    yield* lockDataDirectory(dataDirectory)
    yield* PrivateDirectory.privateUmask
    const db = yield* openPGlite(dataDirectory, options.debug ?? false)
    yield* PrivateDirectory.restrictTree(dataDirectory).pipe(
      Effect.mapError((error) => new EmbeddedPostgresError({ message: error.message, cause: error.cause }))
    )
    const connector = yield* connectTo(db)
    return { connect: connector.connect, dataDirectory }
  }).pipe(Effect.withSpan("EmbeddedPostgres.start"))

/**
 * A `PgClient` on the embedded database: one connection, kept open. Closing the layer closes the
 * client, then the connections, then PGlite.
 *
 * It also tells the repositories that only this process can change the database (the lock file
 * admits one), so the cache of API keys needs no notifications, which could not be listened to
 * anyway: listening would hold the one connection.
 */
export const clientLayer = (
  options: Options
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, EmbeddedPostgresError | StorageError> =>
  Layer.merge(
    Layer.unwrap(
      Effect.map(start(options), (embedded) =>
        connectedClientLayer({
          stream: embedded.connect,
          // PGlite has one user and one database, and no TLS to negotiate.
          username: "postgres",
          database: "postgres",
          ssl: false,
          maxConnections: 1,
          idleTimeout: Duration.infinity,
          applicationName: "petstore"
        })
      )
    ),
    Layer.succeed(Invalidation, "in-process")
  )
