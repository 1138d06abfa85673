/**
 * A statement cut off by its request's deadline must never cancel a statement of another request
 * (issue 14, item 12: one 503 on a healthy database, PostgreSQL having cancelled a key lookup).
 *
 * PostgreSQL cancels whatever its backend runs when the `CancelRequest` arrives. A client that sends
 * one for an interrupted statement and then hands the connection to the next request can so cancel
 * that request's statement, if the first one finished just before the cancel landed. Here, on a
 * small pool of a real server, statements (in transactions and pipelined) are interrupted at every
 * moment of their run, while other fibers run their own statements on the same connections: none of
 * those may fail. The server is reached through a proxy that holds every new connection back for a
 * while, as a busy machine does: a `CancelRequest` travels on a connection of its own, so it lands
 * well after the statement it was sent for may have ended. A second test runs the same victims
 * against stray cancels, to show that the check sees a cancel hitting them.
 */
import { connect, createServer, type Socket } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { TestDatabase } from "@petstore/testing"
import { Duration, Effect, Exit, Fiber, Layer, Random, Ref } from "effect"
import { SqlClient } from "effect/sql"
import { PgStore } from "../src/index.js"

const applicationName = "petstore-interrupted-statements"

/** How long the proxy holds a new connection back before it reaches the server. */
const connectionDelayMillis = 25

/**
 * A loopback proxy to `url`'s server that forwards each connection after `connectionDelayMillis`;
 * the URL that reaches the same database through it.
 */
const delayingProxy = (url: string) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly url: string; readonly close: () => void }>((resume) => {
      const target = new URL(url)
      const sockets = new Set<Socket>()
      const track = (socket: Socket) => {
        sockets.add(socket)
        socket.once("close", () => sockets.delete(socket))
        socket.on("error", () => socket.destroy())
      }
      const proxy = createServer((client) => {
        track(client)
        client.pause()
        setTimeout(() => {
          const server = connect({ host: target.hostname, port: Number(target.port || 5432) })
          track(server)
          server.once("close", () => client.destroy())
          client.once("close", () => server.destroy())
          client.pipe(server).pipe(client)
          client.resume()
        }, connectionDelayMillis)
      })
      proxy.listen(0, "127.0.0.1", () => {
        const address = proxy.address()
        const through = new URL(url)
        through.hostname = "127.0.0.1"
        through.port = String(typeof address === "object" && address !== null ? address.port : 0)
        resume(
          Effect.succeed({
            url: through.toString(),
            close: () => {
              proxy.close()
              for (const socket of sockets) socket.destroy()
            }
          })
        )
      })
    }),
    (proxy) => Effect.sync(proxy.close)
  )

/** Two connections through the proxy, so that every connection is reused many times over. */
const smallPool = Layer.unwrap(
  Effect.gen(function* () {
    const database = yield* TestDatabase.make
    const proxy = yield* delayingProxy(database.url)
    return PgStore.clientLayer({ url: proxy.url, maxConnections: 2, applicationName })
  })
)

/** How long each test keeps the statements coming. */
const runFor = Duration.seconds(4)

interface Tally {
  readonly completed: number
  readonly failures: ReadonlyArray<string>
}

/**
 * Statements that must all succeed with their own answer, pipelined and in transactions, until
 * `until` has passed; what failed, and how many completed.
 */
const victims = (sql: SqlClient.SqlClient, until: number) =>
  Effect.gen(function* () {
    const tally = yield* Ref.make<Tally>({ completed: 0, failures: [] })
    const one = (n: number, inTransaction: boolean) => {
      const statement = Effect.flatMap(
        sql<{ readonly n: number }>`select ${n}::int as n, pg_sleep(0.002)`,
        ([row]) => (row?.n === n ? Effect.void : Effect.fail(new Error(`answered ${row?.n} instead of ${n}`)))
      )
      return Effect.exit(inTransaction ? sql.withTransaction(statement) : statement)
    }
    const loop = (fiberIndex: number) =>
      Effect.gen(function* () {
        let n = fiberIndex * 1_000_000
        while (Date.now() < until) {
          n++
          const exit = yield* one(n, n % 2 === 0)
          yield* Ref.update(tally, ({ completed, failures }) =>
            Exit.isSuccess(exit)
              ? { completed: completed + 1, failures }
              : { completed, failures: [...failures, String(exit.cause)] }
          )
        }
      })
    yield* Effect.forEach([1, 2, 3, 4], loop, { concurrency: "unbounded", discard: true })
    return yield* Ref.get(tally)
  })

/** Statements of 10–40 ms, interrupted at a random moment of their run: how many were cut off. */
const interruptedStatements = (sql: SqlClient.SqlClient, until: number) =>
  Effect.gen(function* () {
    let interrupted = 0
    const loop = Effect.gen(function* () {
      while (Date.now() < until) {
        const sleepMillis = yield* Random.nextIntBetween(10, 40)
        const deadlineMillis = yield* Random.nextIntBetween(0, sleepMillis)
        const statement = sql`select pg_sleep(${sleepMillis / 1000})`
        const inTransaction = (yield* Random.nextBoolean) ? sql.withTransaction(statement) : statement
        const exit = yield* Effect.exit(Effect.timeout(inTransaction, Duration.millis(deadlineMillis)))
        if (Exit.isFailure(exit)) interrupted++
      }
    })
    yield* Effect.forEach([1, 2, 3], () => loop, { concurrency: "unbounded", discard: true })
    return interrupted
  })

/** Cancels every other backend of the pool every few milliseconds, from a connection of its own. */
const strayCancels = (sql: SqlClient.SqlClient, until: number) =>
  Effect.gen(function* () {
    let sent = 0
    while (Date.now() < until) {
      const rows = yield* sql.withTransaction(
        sql<{ readonly cancelled: boolean }>`
          select pg_cancel_backend(pid) as cancelled from pg_stat_activity
          where application_name = ${applicationName} and pid <> pg_backend_pid() and state = 'active'`
      )
      sent += rows.length
      yield* Effect.sleep("5 millis")
    }
    return sent
  })

describe("statements interrupted on a real PostgreSQL server", () => {
  it.live(
    "an interrupted statement's cancel never reaches another request's statement",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const until = Date.now() + Duration.toMillis(runFor)
        const cutOff = yield* Effect.forkChild(interruptedStatements(sql, until))
        const tally = yield* victims(sql, until)
        const interrupted = yield* Fiber.join(cutOff)
        expect(tally.failures).toEqual([])
        // The race was run, many times over, on connections the victims were using too.
        expect(interrupted).toBeGreaterThan(50)
        expect(tally.completed).toBeGreaterThan(200)
      }).pipe(Effect.provide(smallPool)),
    30_000
  )

  it.live(
    "the check sees a cancel that reaches another statement",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const until = Date.now() + Duration.toMillis(Duration.seconds(2))
        const cancels = yield* Effect.forkChild(strayCancels(sql, until))
        const tally = yield* victims(sql, until)
        const sent = yield* Fiber.join(cancels)
        expect(sent).toBeGreaterThan(0)
        expect(tally.failures.length).toBeGreaterThan(0)
        expect(tally.failures.some((failure) => failure.includes("cancel"))).toBe(true)
      }).pipe(Effect.provide(smallPool)),
    30_000
  )
})
