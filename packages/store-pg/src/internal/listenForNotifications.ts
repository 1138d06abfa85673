/**
 * Hearing what other processes change, for whatever a process keeps in memory from the database
 * (API keys, the edge's decisions): `LISTEN` on a connection of its own, which reconnects (backing
 * off) whenever it is lost. What keeps data must know when it may miss a change: `listening` says
 * the channel is heard from now on (anything kept before may be stale, since changes made in
 * between were not heard), `deaf` that it no longer is. A lost connection is logged once per outage,
 * the attempts after it at debug level.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { Cause, Duration, Effect, Queue } from "effect"
import { Reactivity } from "effect/reactivity"

export interface Listener {
  readonly channel: string
  /** Each notification's payload, in the order they were sent. */
  readonly notified: (payload: string) => void
  /** The channel is heard from now on. */
  readonly listening: () => void
  /** The channel is not heard (the connection is lost, or listening stopped). */
  readonly deaf: () => void
  /** What the warning says when changes stop being heard, e.g. "API key changes cannot be heard". */
  readonly outage: string
}

/** The longest pause between two attempts to listen again. */
const maxRetryMillis = 10_000

/** Listens until interrupted. */
export const listenForNotifications = (
  client: PgClient.PgClient,
  listener: Listener
): Effect.Effect<never> => {
  let failures = 0
  const session = Effect.gen(function* () {
    // A client of one connection: listening pins it, and the pool keeps all of its own.
    const connection = yield* PgClient.makeClient(client.config).pipe(
      Effect.provideServiceEffect(Reactivity.Reactivity, Reactivity.make)
    )
    const notifications = yield* connection.listen(listener.channel)
    failures = 0
    listener.listening()
    while (true) {
      for (const notification of yield* Queue.takeAll(notifications)) listener.notified(notification.payload)
    }
  }).pipe(Effect.scoped, Effect.ensuring(Effect.sync(() => listener.deaf())))
  const attempt = Effect.catchCause(session, (cause) => {
    if (Cause.hasInterruptsOnly(cause)) return Effect.interrupt
    failures++
    return failures === 1
      ? Effect.logWarning(listener.outage, cause)
      : Effect.logDebug(`still: ${listener.outage}`, cause)
  })
  return Effect.forever(
    Effect.andThen(
      attempt,
      Effect.suspend(() => Effect.sleep(Duration.millis(Math.min(maxRetryMillis, 250 * 2 ** failures))))
    )
  )
}
