/**
 * The worker's loop: rounds of custom-domain checks (`checkDueCustomDomains`) and, beside them, rounds
 * of the daily rechecks of proved claims (`checkDueClaims`), for the life of the process, and the
 * `PETSTORE_WORKER_*` knobs that shape both. The API runs the same loop in its own process when it has
 * storage no separate worker can open (embedded, memory).
 */
import {
  checkDueClaims,
  checkDueCustomDomains,
  type DueCheckOptions,
  type DueCheckRound,
  type DueClaimRound
} from "@petstore/custom-domains"
import { Config, Duration, Effect, Schema } from "effect"

export interface CustomDomainCheckLoopOptions extends DueCheckOptions {
  /** The pause after a round that found less than a full batch, or failed. */
  readonly pollInterval: Duration.Input
  /** Told every round's outcome (the worker's metrics). */
  readonly onRound?: ((round: DueCheckRound) => Effect.Effect<void>) | undefined
  /** Told every round of claim rechecks' outcome. */
  readonly onClaimRound?: ((round: DueClaimRound) => Effect.Effect<void>) | undefined
}

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

/**
 * Checks due custom domains and rechecks due claims, round after round, until interrupted: two loops
 * side by side on the same knobs and lease holder, so that neither kind of work waits for the other.
 */
export const runCustomDomainChecks = (options: CustomDomainCheckLoopOptions) =>
  Effect.all(
    [
      repeatRounds(checkDueCustomDomains(options), { ...options, work: "domain checks" }),
      repeatRounds(checkDueClaims(options), {
        ...options,
        work: "claim rechecks",
        onRound: options.onClaimRound
      })
    ],
    { concurrency: 2, discard: true }
  )

const integerUpTo = (name: string, maximum: number, message: string) =>
  Config.schema(Schema.Int.check(Schema.makeFilter((n: number) => n >= 1 && n <= maximum, { message })), name)

/** `PETSTORE_WORKER_CONCURRENCY` and the other knobs of the check loop; the holder id is the process's. */
export const CustomDomainCheckConfig = (holder: string): Config.Config<CustomDomainCheckLoopOptions> =>
  Config.all({
    concurrency: integerUpTo("PETSTORE_WORKER_CONCURRENCY", 1000, "must be an integer from 1 to 1000").pipe(
      Config.withDefault(16)
    ),
    batchSize: integerUpTo("PETSTORE_WORKER_BATCH_SIZE", 10_000, "must be an integer from 1 to 10000").pipe(
      Config.withDefault(100)
    ),
    pollInterval: Config.Duration("PETSTORE_WORKER_POLL_INTERVAL").pipe(
      Config.withDefault(Duration.seconds(1))
    ),
    lease: Config.Duration("PETSTORE_WORKER_LEASE").pipe(Config.withDefault(Duration.seconds(60)))
  }).pipe(Config.map((options) => ({ ...options, holder })))
