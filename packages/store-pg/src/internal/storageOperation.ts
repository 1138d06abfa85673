/**
 * Wraps a storage operation: any failure (SQL, undecodable row) becomes the domain's `StorageError`
 * naming the operation, and the operation gets a tracing span of that name.
 */
import { StorageError } from "@petstore/domain"
import { Effect } from "effect"

export const storageOperation =
  (operation: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, StorageError, R> =>
    effect.pipe(
      Effect.mapError((cause) => new StorageError({ operation, cause })),
      // No stack capture: it would cost an Error per query, and the operation's name says where.
      Effect.withSpan(operation, { captureStackTrace: false })
    )
