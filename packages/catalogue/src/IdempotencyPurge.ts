/**
 * Forgetting idempotency keys once they no longer count: a key is remembered for 24 hours
 * (`idempotencyRetention`), after which `decideIdempotency` treats it as absent. Without a purge
 * every key ever sent stayed stored; this drops the expired ones in bounded batches, so no single
 * statement holds many rows. The application repeats it on an interval for the life of the server.
 */
import { Clock, Duration, Effect } from "effect"
import { idempotencyRetention } from "./Idempotency.js"
import { IdempotencyRepository } from "./IdempotencyRepository.js"

/** The latest reservation time of a key that has expired at `nowMillis`. */
export const idempotencyExpiredUpTo = (nowMillis: number): Date =>
  new Date(nowMillis - Duration.toMillis(idempotencyRetention))

/** Forgets every key expired now, a batch at a time; answers how many. */
export const purgeExpiredIdempotencyKeys = (batchSize: number) =>
  Effect.gen(function* () {
    const keys = yield* IdempotencyRepository
    const expiredUpTo = idempotencyExpiredUpTo(yield* Clock.currentTimeMillis)
    let forgotten = 0
    for (;;) {
      const batch = yield* keys.purge(expiredUpTo, batchSize)
      forgotten += batch
      if (batch < batchSize) return forgotten
    }
  })
