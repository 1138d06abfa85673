/**
 * A throwaway PostgreSQL database for one test file (or one `layer(...)` block): created on a
 * server, dropped when the scope closes.
 *
 * The server is, in this order: `PETSTORE_TEST_DATABASE_URL` when set; a `postgres:16-alpine`
 * container when a container runtime is reachable; else `postgres://postgres@127.0.0.1:5432/postgres`.
 * A server that cannot be reached fails the tests with a message saying so: never a silent skip.
 */
import { Context, Data, Effect, Layer, Option, type Scope } from "effect"
import { Hex } from "effect/encoding"
import pg from "pg"
import * as ContainerRuntime from "./ContainerRuntime.js"
import * as TestServerSource from "./TestServerSource.js"

export const serverUrlVariable = "PETSTORE_TEST_DATABASE_URL"
export const defaultServerUrl = "postgres://postgres@127.0.0.1:5432/postgres"
export const containerImage = "postgres:16-alpine"

export class TestDatabaseError extends Data.TaggedError("TestDatabaseError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

export class TestDatabase extends Context.Service<
  TestDatabase,
  {
    /** Connection URL of the fresh database. */
    readonly url: string
    /** Its name, `petstore_test_<random>`. */
    readonly name: string
  }
>()("@petstore/testing/TestDatabase") {}

interface Server {
  readonly url: string
  readonly origin: string
}

/** The URL without its password, for messages. */
const describeUrl = (url: string): string => {
  try {
    const parsed = new URL(url)
    if (parsed.password !== "") parsed.password = "***"
    return parsed.toString()
  } catch {
    return "(unparsable URL)"
  }
}

const causeMessage = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

const startContainer: Effect.Effect<Server, TestDatabaseError, Scope.Scope> = Effect.acquireRelease(
  Effect.tryPromise({
    try: async () => {
      const { PostgreSqlContainer } = await import("@testcontainers/postgresql")
      return new PostgreSqlContainer(containerImage).start()
    },
    catch: (cause) =>
      new TestDatabaseError({
        message: `A container runtime is reachable but ${containerImage} did not start: ${causeMessage(cause)}`,
        cause
      })
  }),
  (container) => Effect.promise(() => container.stop()).pipe(Effect.ignore)
).pipe(
  Effect.map((container) => ({ url: container.getConnectionUri(), origin: `a ${containerImage} container` }))
)

const chooseServer: Effect.Effect<Server, TestDatabaseError, Scope.Scope> = Effect.suspend(() =>
  Option.match(TestServerSource.configured(serverUrlVariable), {
    onSome: (url) => Effect.succeed({ url, origin: serverUrlVariable }),
    onNone: () =>
      Effect.flatMap(ContainerRuntime.reachable, (reachable) =>
        reachable
          ? startContainer
          : Effect.succeed({ url: defaultServerUrl, origin: "the default local server" })
      )
  })
)

/** Runs one statement on the server's administrative database, on a connection of its own. */
const administer = (server: Server, statement: string): Effect.Effect<void, TestDatabaseError> =>
  Effect.tryPromise({
    try: async () => {
      const client = new pg.Client({ connectionString: server.url, connectionTimeoutMillis: 10_000 })
      client.on("error", () => undefined)
      try {
        await client.connect()
        await client.query(statement)
      } finally {
        await client.end().catch(() => undefined)
      }
    },
    catch: (cause) =>
      new TestDatabaseError({
        message:
          `PostgreSQL for tests (${server.origin}, ${describeUrl(server.url)}) failed: ${causeMessage(cause)}. ` +
          `Start PostgreSQL there, set ${serverUrlVariable} to a server where the user may create databases, ` +
          "or make a container runtime available.",
        cause
      })
  })

const withDatabase = (serverUrl: string, database: string): string => {
  const url = new URL(serverUrl)
  url.pathname = `/${database}`
  return url.toString()
}

const randomSuffix: Effect.Effect<string> = Effect.sync(() => {
  const bytes = new Uint8Array(8)
  globalThis.crypto.getRandomValues(bytes)
  return Hex.encode(bytes)
})

/** Creates the database and yields it; the database is dropped (connections forced off) on scope close. */
export const make: Effect.Effect<TestDatabase["Service"], TestDatabaseError, Scope.Scope> = Effect.gen(
  function* () {
    const server = yield* chooseServer
    const name = `petstore_test_${yield* randomSuffix}`
    yield* Effect.acquireRelease(administer(server, `create database "${name}"`), () =>
      administer(server, `drop database if exists "${name}" with (force)`).pipe(
        Effect.catch((error) => Effect.logWarning(error.message))
      )
    )
    return { url: withDatabase(server.url, name), name }
  }
)

export const layer: Layer.Layer<TestDatabase, TestDatabaseError> = Layer.effect(TestDatabase, make)
