/**
 * `ServingChanges` on PostgreSQL: the hub the store's repositories announce their own changes to
 * (see `ServingChangeHub`), plus, where other processes can change the database, what they change.
 * How is the client's `Invalidation` (`internal/Invalidation`), a fact about the database it reaches:
 * - `"notifications"` (a server): migration 0008's triggers announce every change that can change
 *   serving on `edge_changes`, which a connection of its own `LISTEN`s to from the first
 *   subscription until the layer closes. Until it listens, and whenever it is lost, listeners are
 *   told changes are not heard (the edge then reads storage every time); reconnected, that they are
 *   again (and anything kept from before is dropped).
 * - `"in-process"` (the embedded database, which only this process opens): this process's own
 *   changes are all there are.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { makeServingChangeHub, type ServingChange, ServingChangeHub } from "@petstore/serving"
import { Effect, Latch, Layer } from "effect"
import { Invalidation } from "../internal/Invalidation.js"
import { listenForNotifications } from "../internal/listenForNotifications.js"

/** The channel migration 0008's triggers announce changes on. */
export const changesChannel = "edge_changes"

/**
 * A notification's change: `hostname:<name>` or `project:<id>`; anything else (the empty payload
 * of an emptied table included) may have changed everything.
 */
export const changeOf = (payload: string): ServingChange => {
  const parsed = /^(hostname|project):(.+)$/s.exec(payload)
  if (parsed === null) return { _tag: "Everything" }
  const [, kind, key] = parsed
  return kind === "hostname"
    ? { _tag: "Hostname", hostname: key ?? "" }
    : { _tag: "Project", projectId: key ?? "" }
}

/**
 * The hub of one store. Built once per layer build (memoised by reference), so the repositories of
 * `PgStore.layer` and of `PgStore.certificatesLayer` announce to the same listeners.
 */
export const layer: Layer.Layer<ServingChangeHub, never, PgClient.PgClient> = Layer.effect(
  ServingChangeHub,
  Effect.gen(function* () {
    if ((yield* Invalidation) === "in-process") return makeServingChangeHub({ hearing: true })
    const client = yield* PgClient.PgClient
    const start = yield* Latch.make(false)
    const hub = makeServingChangeHub({
      hearing: false,
      onSubscribe: () => {
        start.openUnsafe()
      }
    })
    yield* Effect.forkScoped(
      Effect.andThen(
        start.await,
        listenForNotifications(client, {
          channel: changesChannel,
          notified: (payload) => hub.publish(changeOf(payload)),
          listening: () => hub.setHearing(true),
          deaf: () => hub.setHearing(false),
          outage: "changes to served domains cannot be heard; the edge reads the database until they can"
        })
      )
    )
    return hub
  })
)
