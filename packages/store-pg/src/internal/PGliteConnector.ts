/**
 * PGlite's one backend reached in process: each `connect` gives a duplex stream that speaks the
 * PostgreSQL protocol (what @effect/sql-pg's `stream` option takes), so no socket is opened and no
 * other process or user can connect.
 *
 * PGlite is one session. Messages of every stream run one at a time, and a stream that has begun a
 * statement cycle or a transaction keeps the backend until the cycle ends outside a transaction;
 * the other streams' messages wait. A stream that closes while holding it (the client gave up on the
 * connection) has its cycle ended and its transaction rolled back first, so nothing of it leaks into
 * the next stream. SSL and cancel requests are answered the way a server without them does: `N`,
 * and closing the cancel connection.
 */
import { Duplex } from "node:stream"
import type { PGlite } from "@electric-sql/pglite"

const sslRequestCode = 80877103
const cancelRequestCode = 80877102
const messageSync = 0x53
const messageQuery = 0x51
const messageTerminate = 0x58

const frontendMessage = (type: number, body: Uint8Array): Uint8Array => {
  const message = Buffer.alloc(5 + body.length)
  message[0] = type
  message.writeInt32BE(4 + body.length, 1)
  message.set(body, 5)
  return message
}

const sync = frontendMessage(messageSync, new Uint8Array(0))
const rollback = frontendMessage(messageQuery, Buffer.from("ROLLBACK\0", "utf8"))
const discard = () => {}

interface Message {
  readonly bytes: Uint8Array
  /** The message type; none for the startup message. */
  readonly type: number | undefined
}

class Session {
  started = false
  closed = false
  private ended = false
  private received: Buffer = Buffer.alloc(0)

  constructor(readonly stream: Duplex) {}

  /**
   * The complete messages in what has arrived so far; the requests that may come before startup are
   * answered here. A length no message can have ends the stream (the client is not speaking the
   * protocol, and nothing after it could be framed).
   */
  take(chunk: Buffer): ReadonlyArray<Message> {
    this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk])
    const messages: Array<Message> = []
    while (!this.closed) {
      // Before startup a message is a length then a code; afterwards a type byte then a length.
      const headerLength = this.started ? 5 : 8
      if (this.received.length < headerLength) break
      const length = this.started ? 1 + this.received.readInt32BE(1) : this.received.readInt32BE(0)
      if (length < headerLength) {
        this.stream.destroy(new Error(`Invalid PostgreSQL message length ${length}`))
        break
      }
      if (this.received.length < length) break
      const message = this.received.subarray(0, length)
      this.received = this.received.subarray(length)
      if (this.started) {
        messages.push({ bytes: message, type: message[0] })
        continue
      }
      const code = message.readInt32BE(4)
      if (code === sslRequestCode) {
        this.stream.push(Buffer.from("N"))
      } else if (code === cancelRequestCode) {
        // Nothing can be cancelled in PGlite; the server side of a cancel request just closes.
        this.end()
        this.stream.destroy()
      } else {
        this.started = true
        messages.push({ bytes: message, type: undefined })
      }
    }
    return messages
  }

  deliver(data: Uint8Array): void {
    if (!this.closed) this.stream.push(Buffer.from(data))
  }

  /** Ends what the client reads (once). */
  end(): void {
    if (this.ended) return
    this.ended = true
    this.stream.push(null)
  }
}

export interface PGliteConnector {
  /** A new protocol stream to the backend. */
  readonly connect: () => Duplex
  /** Ends every stream and waits until the backend is idle (and left outside any transaction). */
  readonly close: () => Promise<void>
}

export const make = (db: PGlite): PGliteConnector => {
  const pending: Array<{ readonly session: Session; readonly message: Message }> = []
  const sessions = new Set<Session>()
  /** The stream that holds the backend (mid-cycle or in a transaction), if one does. */
  let owner: Session | undefined
  let draining: Promise<void> | undefined
  let closed = false

  const run = (message: Uint8Array, onRawData: (data: Uint8Array) => void) =>
    db.runExclusive(() => db.execProtocolRawStream(message, { onRawData }))

  const execute = async (session: Session, { bytes, type }: Message): Promise<void> => {
    if (type === messageTerminate) {
      // The client is done (after what it sent before): it goes as if it had closed, and its end
      // is answered with ours.
      close(session)
      session.end()
      return
    }
    try {
      await run(bytes, (data) => session.deliver(data))
    } catch (cause) {
      session.stream.destroy(cause instanceof Error ? cause : new Error(String(cause)))
      owner = session
      return
    }
    const cycleEnded = type === undefined || type === messageSync || type === messageQuery
    owner = cycleEnded && !db.isInTransaction() ? undefined : session
  }

  /** Ends the cycle and the transaction a closed stream left behind. */
  const release = async (): Promise<void> => {
    try {
      await run(sync, discard)
      if (db.isInTransaction()) await run(rollback, discard)
    } catch {
      // PGlite itself failed; the next statement reports it.
    }
  }

  const drain = async (): Promise<void> => {
    try {
      while (true) {
        if (owner?.closed) {
          await release()
          owner = undefined
          continue
        }
        const index = owner === undefined ? 0 : pending.findIndex((item) => item.session === owner)
        const next = index < 0 ? undefined : pending[index]
        if (next === undefined) break
        pending.splice(index, 1)
        if (!next.session.closed) await execute(next.session, next.message)
      }
    } finally {
      draining = undefined
    }
  }

  const schedule = (): void => {
    // Started from a microtask, so that a drain that finds nothing to do has `draining` to clear.
    if (draining === undefined) draining = Promise.resolve().then(drain)
  }

  const receive = (session: Session, chunk: Buffer): void => {
    for (const message of session.take(chunk)) pending.push({ session, message })
    schedule()
  }

  const close = (session: Session): void => {
    if (session.closed) return
    session.closed = true
    sessions.delete(session)
    for (let index = pending.length - 1; index >= 0; index--) {
      if (pending[index]?.session === session) pending.splice(index, 1)
    }
    schedule()
  }

  const connect = (): Duplex => {
    const stream: Duplex = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, callback) {
        receive(session, chunk)
        callback()
      },
      final(callback) {
        close(session)
        session.end()
        callback()
      },
      destroy(error, callback) {
        close(session)
        callback(error)
      }
    })
    const session = new Session(stream)
    if (closed) {
      session.closed = true
      process.nextTick(() => stream.destroy(new Error("The embedded database is closed")))
    } else {
      sessions.add(session)
    }
    return stream
  }

  return {
    connect,
    close: async () => {
      closed = true
      for (const session of Array.from(sessions)) session.stream.destroy()
      while (draining !== undefined) await draining
    }
  }
}
