/**
 * What the purges share: one round at start, then one after every `interval`, for the life of the
 * process. A round that fails (storage down) is logged and tried again at the next interval: what
 * it left is still past its retention, so nothing depends on it having run.
 */
import { type Duration, Effect } from "effect"

export interface PurgeLoopOptions<E, R> {
  /** What a round forgets, as its log lines name it ("expired idempotency keys"). */
  readonly forgets: string
  /** One round: how many it forgot. */
  readonly round: Effect.Effect<number, E, R>
  /** The pause between two rounds. */
  readonly interval: Duration.Input
}

/** Runs `round` at once, then after every `interval`, until interrupted. */
export const runPurgeLoop = <E, R>(options: PurgeLoopOptions<E, R>): Effect.Effect<never, never, R> =>
  options.round.pipe(
    Effect.tap((forgotten) =>
      forgotten > 0 ? Effect.logInfo(`forgot ${forgotten} ${options.forgets}`) : Effect.void
    ),
    Effect.catch((error) => Effect.logWarning(`purging ${options.forgets} failed`, error)),
    Effect.andThen(Effect.sleep(options.interval)),
    Effect.forever
  )
