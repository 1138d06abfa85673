/**
 * The worker's loop: rounds of custom-domain checks (`checkDueCustomDomains`) and, beside them, rounds
 * of the daily rechecks of proved claims (`checkDueClaims`) and rounds of webhook deliveries
 * (`deliverDueWebhooks`), for the life of the process, and the `PETSTORE_WORKER_*` knobs that shape
 * them. The API runs the same loop in its own process when it has storage no separate worker can open
 * (embedded, memory).
 */

import { WebhookConfig } from "@petstore/app-config"
import {
  checkDueClaims,
  checkDueCustomDomains,
  type DueCheckOptions,
  type DueCheckRound,
  type DueClaimRound,
  deliverDueWebhooks
} from "@petstore/custom-domains"
import { Config, Duration, Effect, Schema } from "effect"

export interface CustomDomainCheckLoopOptions extends DueCheckOptions {
  /** The pause after a round that found less than a full batch, or failed. */
  readonly pollInterval: Duration.Input
  /** `PETSTORE_WEBHOOK_RETRY_BASE`: the wait after a delivery's first failed attempt. */
  readonly retryBase: Duration.Input
  /** The longest one delivery may take (the sender's timeout): a delivery's lease outlasts it. */
  readonly sendTimeout: Duration.Input
  /** Told every round's outcome (the worker's metrics). */
  readonly onRound?: ((round: DueCheckRound) => Effect.Effect<void>) | undefined
  /** Told every round of claim rechecks' outcome. */
  readonly onClaimRound?: ((round: DueClaimRound) => Effect.Effect<void>) | undefined
  /** Told every round of webhook deliveries' outcome. */
  readonly onDeliveryRound?: ((round: DueCheckRound) => Effect.Effect<void>) | undefined
}

/**
 * How delivery rounds are shaped from the loop's knobs. A round sends at most `concurrency`
 * deliveries, all at once, so that it lasts at most one send timeout; and their lease lasts at least
 * two send timeouts, so that a receiver that is slow to answer is never sent the same event by a
 * second worker while the first still waits for it (were the lease shorter than the timeout, both
 * would lose their lease before storing the answer, and the event would be sent forever).
 */
export const deliveryRoundOptions = (options: CustomDomainCheckLoopOptions) => {
  const shortestLease = Duration.times(Duration.fromInputUnsafe(options.sendTimeout), 2)
  const lease = Duration.fromInputUnsafe(options.lease)
  return {
    holder: options.holder,
    concurrency: options.concurrency,
    batchSize: Math.min(options.batchSize, options.concurrency),
    lease: Duration.max(lease, shortestLease),
    retryBase: options.retryBase
  }
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
 * How many rounds of domain checks a process keeps in flight. A round waits on storage three times
 * (its claim, its checks' ownership facts, its results), with nothing else to do meanwhile; a second
 * round does its DNS work in those waits.
 */
export const checkRoundsInFlight = 2

/**
 * Checks due custom domains, rechecks due claims and delivers due webhooks, round after round, until
 * interrupted: loops side by side on the same knobs, so that no kind of work waits for another (a
 * receiver that hangs delays no domain check). Each loop of domain checks holds its leases under a
 * holder of its own (the process's, numbered), so that a result of one can never be stored over a
 * lease the other took.
 */
export const runCustomDomainChecks = (options: CustomDomainCheckLoopOptions) => {
  const deliveries = deliveryRoundOptions(options)
  const checkLoops = Array.from({ length: checkRoundsInFlight }, (_, index) =>
    repeatRounds(checkDueCustomDomains({ ...options, holder: `${options.holder}/${index + 1}` }), {
      ...options,
      work: "domain checks"
    })
  )
  return Effect.all(
    [
      ...checkLoops,
      repeatRounds(checkDueClaims(options), {
        ...options,
        work: "claim rechecks",
        onRound: options.onClaimRound
      }),
      repeatRounds(deliverDueWebhooks(deliveries), {
        ...options,
        batchSize: deliveries.batchSize,
        work: "webhook deliveries",
        onRound: options.onDeliveryRound
      })
    ],
    { concurrency: "unbounded", discard: true }
  )
}

const integerUpTo = (name: string, maximum: number, message: string) =>
  Config.schema(Schema.Int.check(Schema.makeFilter((n: number) => n >= 1 && n <= maximum, { message })), name)

/**
 * `PETSTORE_WORKER_CONCURRENCY` and the other knobs of the check loop, with the webhooks' retry base
 * (`PETSTORE_WEBHOOK_RETRY_BASE`); the holder id is the process's, the send timeout the sender's.
 */
export const CustomDomainCheckConfig = (
  holder: string,
  sendTimeout: Duration.Input
): Config.Config<CustomDomainCheckLoopOptions> =>
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
    lease: Config.Duration("PETSTORE_WORKER_LEASE").pipe(Config.withDefault(Duration.seconds(60))),
    webhooks: WebhookConfig
  }).pipe(
    Config.map(({ webhooks, ...options }) => ({
      ...options,
      holder,
      retryBase: webhooks.retryBase,
      sendTimeout
    }))
  )
