/**
 * Wraps a storage operation: any failure (SQL, undecodable row) becomes the domain's `StorageError`
 * naming the operation, and the operation gets a tracing span of that name. So does a `SqlError`
 * raised as a defect: `effect/sql` makes a failed ROLLBACK (the connection lost mid-transaction) a
 * defect, and a database going away is a storage failure (503), not a bug (500).
 */
import { StorageError } from "@petstore/kernel"
import { Effect } from "effect"
import { isSqlError } from "effect/sql/SqlError"

export const storageOperation =
  (operation: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, StorageError, R> =>
    effect.pipe(
      Effect.mapError((cause) => new StorageError({ operation, cause })),
      Effect.catchDefect((defect) =>
        isSqlError(defect) ? Effect.fail(new StorageError({ operation, cause: defect })) : Effect.die(defect)
      ),
      // No stack capture: it would cost an Error per query, and the operation's name says where.
      Effect.withSpan(operation, undefined, { captureStackTrace: false })
    )
