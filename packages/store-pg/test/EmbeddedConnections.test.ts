/**
 * The embedded database's connections (in-process protocol streams to PGlite's one session): a
 * connection inside a transaction or a statement cycle keeps the session until it is done, and one
 * that goes away mid-way leaves nothing behind for the next; requests a server without TLS or
 * cancellation gets are answered like one; nothing connects once the database is closed.
 */
import type { Duplex } from "node:stream"
import * as PgConnection from "@effect/sql-pg/PgConnection"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Redacted, Scope } from "effect"
import { EmbeddedPostgres } from "../src/index.js"
import { temporaryDirectory } from "./temporaryDirectory.js"

const connectionTo = (embedded: EmbeddedPostgres.EmbeddedPostgres) =>
  PgConnection.make({ stream: embedded.connect, username: "postgres", database: "postgres", ssl: false })

const count = (connection: PgConnection.PgConnection) =>
  Effect.map(connection.query("select count(*)::int as count from t"), (result) => result.rows[0]?.count)

const int32 = (value: number) => {
  const bytes = Buffer.alloc(4)
  bytes.writeInt32BE(value)
  return bytes
}

const cString = (text: string) => Buffer.from(`${text}\0`, "utf8")

const startupMessage = () => {
  const body = Buffer.concat([int32(196608), cString("user"), cString("postgres"), Buffer.from([0])])
  return Buffer.concat([int32(body.length + 4), body])
}

const typedMessage = (type: string, body: Buffer) =>
  Buffer.concat([Buffer.from(type, "ascii"), int32(body.length + 4), body])

/** A connection driven by hand, frame by frame, to leave it where a client library never would. */
const rawConnection = (stream: Duplex) => {
  let received = Buffer.alloc(0)
  const waiters = new Set<() => void>()
  stream.on("data", (chunk: Buffer) => {
    received = Buffer.concat([received, chunk])
    for (const wake of waiters) wake()
  })
  return {
    send: (frame: Buffer) => Effect.sync(() => stream.write(frame)),
    /** Waits until what came back so far satisfies `done`. */
    until: (done: (received: Buffer) => boolean) =>
      Effect.callback<void>((resume) => {
        const check = () => {
          if (!done(received)) return
          waiters.delete(check)
          resume(Effect.void)
        }
        waiters.add(check)
        check()
        return Effect.sync(() => waiters.delete(check))
      }),
    received: () => received,
    destroy: Effect.sync(() => stream.destroy())
  }
}

/** The number of `ReadyForQuery` messages in a backend byte stream. */
const readyCount = (bytes: Buffer): number => {
  let ready = 0
  for (let offset = 0; offset + 5 <= bytes.length; offset += 1 + bytes.readInt32BE(offset + 1)) {
    if (bytes[offset] === 0x5a) ready++
  }
  return ready
}

const hasError = (bytes: Buffer): boolean => {
  for (let offset = 0; offset + 5 <= bytes.length; offset += 1 + bytes.readInt32BE(offset + 1)) {
    if (bytes[offset] === 0x45) return true
  }
  return false
}

describe("EmbeddedPostgres connections", () => {
  it.live(
    "a connection in a transaction keeps the session; closing it mid-transaction rolls the transaction back",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const embedded = yield* EmbeddedPostgres.start({ dataDirectory: yield* temporaryDirectory })
          const first = yield* connectionTo(embedded)
          yield* first.query("create table t (id int)")

          const secondScope = yield* Scope.make()
          const second = yield* Scope.provide(connectionTo(embedded), secondScope)
          yield* second.query("begin")
          yield* second.query("insert into t values (1)")
          expect(yield* count(second)).toBe(1)

          // The first connection's statement waits for the session instead of running inside the
          // second one's transaction.
          const waiting = yield* Effect.forkChild(count(first))
          yield* Effect.sleep("200 millis")
          expect(waiting.pollUnsafe()).toBeUndefined()

          yield* Scope.close(secondScope, Exit.void)
          expect(yield* Fiber.join(waiting)).toBe(0)

          // Committed work of a connection that then closes stays.
          const third = yield* Scope.provide(connectionTo(embedded), yield* Scope.make())
          yield* third.query("begin")
          yield* third.query("insert into t values (2)")
          yield* third.query("commit")
          expect(yield* count(first)).toBe(1)
        })
      ),
    120_000
  )

  it.live(
    "a connection that goes away mid-transaction or mid-cycle leaves the next one a clean session",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const embedded = yield* EmbeddedPostgres.start({ dataDirectory: yield* temporaryDirectory })
          const connection = yield* connectionTo(embedded)
          yield* connection.query("create table t (id int)")

          // Gone inside a transaction, without a word (no Terminate).
          const inTransaction = rawConnection(embedded.connect())
          yield* inTransaction.send(startupMessage())
          yield* inTransaction.until((received) => readyCount(received) === 1)
          yield* inTransaction.send(typedMessage("Q", cString("begin; insert into t values (1)")))
          yield* inTransaction.until((received) => readyCount(received) === 2)
          yield* inTransaction.destroy
          expect(yield* count(connection)).toBe(0)

          // Gone after a statement failed inside an unfinished cycle (the session then skips all but
          // Sync): the next statements still run.
          const midCycle = rawConnection(embedded.connect())
          yield* midCycle.send(startupMessage())
          yield* midCycle.until((received) => readyCount(received) === 1)
          yield* midCycle.send(
            typedMessage("P", Buffer.concat([cString(""), cString("select no_such_column"), Buffer.alloc(2)]))
          )
          yield* midCycle.until(hasError)
          yield* midCycle.destroy
          expect(yield* count(connection)).toBe(0)
          yield* connection.query("insert into t values (3)")
          expect(yield* count(connection)).toBe(1)
        })
      ),
    120_000
  )

  it.live(
    "an SSL request is declined and a cancel request closes its connection",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const embedded = yield* EmbeddedPostgres.start({ dataDirectory: yield* temporaryDirectory })
          const ssl = rawConnection(embedded.connect())
          yield* ssl.send(Buffer.concat([int32(8), int32(80877103)]))
          yield* ssl.until((received) => received.length > 0)
          expect(ssl.received().toString("ascii")).toBe("N")
          yield* ssl.send(startupMessage())
          yield* ssl.until((received) => readyCount(received.subarray(1)) === 1)

          const cancelStream = embedded.connect()
          const closing = new Promise<void>((resolve) => cancelStream.once("close", () => resolve()))
          const closed = Effect.promise(() => closing)
          const cancel = rawConnection(cancelStream)
          yield* cancel.send(Buffer.concat([int32(16), int32(80877102), int32(1), int32(2)]))
          yield* closed
          expect(cancel.received().length).toBe(0)

          // Through a client that negotiates TLS when it may: it goes on in plain text.
          const prefer = yield* PgConnection.make({
            stream: embedded.connect,
            url: Redacted.make("postgres://postgres@localhost/postgres?sslmode=prefer")
          }).pipe(Effect.exit)
          expect(Exit.isSuccess(prefer)).toBe(true)
        })
      ),
    120_000
  )

  it.live(
    "once the database is closed, connections fail",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const directory = yield* temporaryDirectory
          const embedded = yield* Effect.scoped(EmbeddedPostgres.start({ dataDirectory: directory }))
          const exit = yield* Effect.exit(Effect.scoped(connectionTo(embedded)))
          expect(Exit.isFailure(exit)).toBe(true)
        })
      ),
    120_000
  )
})
