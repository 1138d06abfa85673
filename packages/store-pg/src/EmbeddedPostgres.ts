/**
 * An embedded PostgreSQL for running without a database server: PGlite (PostgreSQL compiled to
 * WebAssembly) persisted in a data directory, served on 127.0.0.1 at an ephemeral port by
 * pglite-socket, so that the ordinary PostgreSQL store (node-postgres through @effect/sql-pg) runs on
 * it unchanged.
 *
 * PGlite is one single-user backend. The socket server therefore accepts one connection, and the
 * client must use a pool of exactly one connection that it never closes while idle (`clientLayer`
 * does both): statements of concurrent requests then queue in the pool, and a transaction holds the
 * connection until it ends. A lock file keeps two processes (or two layers) from opening the same
 * data directory, which PGlite itself does not prevent.
 */

import { mkdir, open, readFile, unlink } from "node:fs/promises"
import { join, resolve } from "node:path"
import type { SqlClient } from "@effect/sql"
import type { PgClient } from "@effect/sql-pg"
import type { PGlite } from "@electric-sql/pglite"
import type { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import type { StorageError } from "@petstore/domain"
import { Data, Effect, Layer, Option, Redacted, type Scope } from "effect"
import * as PgStore from "./PgStore.js"

export interface Options {
  /** Where the database lives; created when missing, reused (with its data) when present. */
  readonly dataDirectory: string
  /** Logs every protocol message of PGlite and of the socket server to the console. */
  readonly debug?: boolean
}

export interface EmbeddedPostgres {
  /** Connection URL of the running server (no password: it listens on loopback only). */
  readonly url: Redacted.Redacted<string>
  /** The absolute data directory. */
  readonly dataDirectory: string
}

export class EmbeddedPostgresError extends Data.TaggedError("EmbeddedPostgresError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

/** Name of the lock file inside the data directory; it holds the id of the owning process. */
export const lockFileName = "petstore-embedded.lock"

const describe = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

const fail = (message: string) => (cause: unknown) =>
  new EmbeddedPostgresError({ message: `${message}: ${describe(cause)}`, cause })

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

const serve = (db: PGlite, debug: boolean): Effect.Effect<number, EmbeddedPostgresError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket")
        const server: PGLiteSocketServer = new PGLiteSocketServer({
          db,
          host: "127.0.0.1",
          port: 0,
          maxConnections: 1,
          debug
        })
        await server.start()
        return server
      },
      catch: fail("Could not serve the embedded database on 127.0.0.1")
    }),
    (server) => Effect.promise(() => server.stop()).pipe(Effect.ignore)
  ).pipe(
    Effect.flatMap((server) => {
      const port = Number(server.getServerConn().split(":").pop())
      return Number.isInteger(port) && port > 0
        ? Effect.succeed(port)
        : Effect.fail(
            new EmbeddedPostgresError({ message: `Unexpected listening address ${server.getServerConn()}` })
          )
    })
  )

/**
 * Opens (or creates) the database in the data directory and serves it until the scope closes; then
 * the server stops, PGlite closes and the lock is released.
 */
export const start = (
  options: Options
): Effect.Effect<EmbeddedPostgres, EmbeddedPostgresError, Scope.Scope> =>
  Effect.gen(function* () {
    const dataDirectory = resolve(options.dataDirectory)
    const debug = options.debug ?? false
    yield* Effect.tryPromise({
      try: () => mkdir(dataDirectory, { recursive: true }),
      catch: fail(`Could not create the embedded database directory ${dataDirectory}`)
    })
    yield* lockDataDirectory(dataDirectory)
    const db = yield* openPGlite(dataDirectory, debug)
    const port = yield* serve(db, debug)
    return { url: Redacted.make(`postgres://postgres@127.0.0.1:${port}/postgres`), dataDirectory }
  }).pipe(Effect.withSpan("EmbeddedPostgres.start"))

/**
 * A `PgClient` on the embedded database: one connection, kept open. Closing the layer closes the
 * client, then the server, then PGlite.
 */
export const clientLayer = (
  options: Options
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, EmbeddedPostgresError | StorageError> =>
  Layer.unwrapScoped(
    Effect.map(start(options), (embedded) =>
      PgStore.clientLayer({ url: embedded.url, maxConnections: 1, keepIdleConnections: true })
    )
  )
