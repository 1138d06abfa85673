/**
 * What the loops of rounds share (domain checks, claim rechecks): one round after another while
 * rounds come back full, a pause otherwise, and a failed round logged and retried after the pause,
 * for the life of the process.
 */
import { type Duration, Effect } from "effect"

export interface RoundLoopOptions<Round> {
  /** What the rounds do, as the logs name them: "domain checks", "claim rechecks". */
  readonly work: string
  readonly batchSize: number
  readonly pollInterval: Duration.Input
  readonly onRound?: ((round: Round) => Effect.Effect<void>) | undefined
}

/**
 * Runs `round` until interrupted: another round at once while rounds come back full (`batchSize`
 * claimed), otherwise a pause of `pollInterval`. A round that fails (storage down) is logged and
 * retried after the pause.
 */
export const repeatRounds = <Round extends { readonly claimed: number }, E, R>(
  round: Effect.Effect<Round, E, R>,
  options: RoundLoopOptions<Round>
): Effect.Effect<never, never, R> =>
  round.pipe(
    Effect.tap((outcome) => (outcome.claimed > 0 ? Effect.logDebug(options.work, outcome) : Effect.void)),
    Effect.tap((outcome) => options.onRound?.(outcome) ?? Effect.void),
    Effect.flatMap((outcome) =>
      outcome.claimed === options.batchSize ? Effect.void : Effect.sleep(options.pollInterval)
    ),
    Effect.catch((error) =>
      Effect.andThen(
        Effect.logWarning(`a round of ${options.work} failed`, error),
        Effect.sleep(options.pollInterval)
      )
    ),
    Effect.forever
  )
