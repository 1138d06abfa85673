/**
 * Forgetting idempotency keys once they no longer count: a key is remembered for 24 hours
 * (`idempotencyRetention`), after which `decideIdempotency` treats it as absent. Without a purge
 * every key ever sent stayed stored; this drops the expired ones in bounded batches, so no single
 * statement holds many rows, and repeats on an interval for the life of the server.
 */
import { Clock, Duration, Effect } from "effect"
import { idempotencyRetention } from "./Idempotency.js"
import { IdempotencyRepository } from "./IdempotencyRepository.js"

/** The latest reservation time of a key that has expired at `nowMillis`. */
export const idempotencyExpiredUpTo = (nowMillis: number): Date =>
  new Date(nowMillis - Duration.toMillis(idempotencyRetention))

export interface IdempotencyPurgeOptions {
  /** Keys forgotten per statement. */
  readonly batchSize: number
  /** The pause between two purges. */
  readonly interval: Duration.Input
}

export const defaultIdempotencyPurge: IdempotencyPurgeOptions = {
  batchSize: 1_000,
  interval: Duration.hours(1)
}

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

/**
 * Purges at once, then after every `interval`, until interrupted. A purge that fails (storage down)
 * is logged and tried again at the next interval: the keys it left are still treated as expired.
 */
export const runIdempotencyPurge = (options: IdempotencyPurgeOptions = defaultIdempotencyPurge) =>
  purgeExpiredIdempotencyKeys(options.batchSize).pipe(
    Effect.tap((forgotten) =>
      forgotten > 0 ? Effect.logInfo(`forgot ${forgotten} expired idempotency keys`) : Effect.void
    ),
    Effect.catch((error) => Effect.logWarning("purging expired idempotency keys failed", error)),
    Effect.andThen(Effect.sleep(options.interval)),
    Effect.forever
  )
