/**
 * When a failed webhook delivery is tried again (contract section 5): attempt n+1 comes
 * `base × 2^(n−1)` after attempt n, so a receiver that is down for a moment gets its events within
 * seconds and one that is down for long is not hammered; at most an hour apart, so it gets them
 * within the hour of coming back. ±20% jitter spreads the retries of many deliveries that failed
 * together (a receiver's outage). After 24 hours of trying the delivery is given up. Pure: the random
 * draw is a parameter, so the schedule is tested exactly.
 */
import { Duration, Option } from "effect"

/** `PETSTORE_WEBHOOK_RETRY_BASE` when unset: the first retry comes about 5 seconds after the first attempt. */
export const defaultWebhookRetryBase = Duration.seconds(5)

/** The longest wait between two attempts, jitter included. */
export const longestWebhookRetryInterval = Duration.hours(1)

/** How long after the first attempt attempts may still start; after it the delivery has failed. */
export const webhookRetryWindow = Duration.hours(24)

/** How far a wait may be drawn from its nominal length, either way. */
export const webhookRetryJitter = 0.2

/**
 * The wait after failed attempt `attempt` (1 for the first): `base × 2^(attempt−1)` at most an hour,
 * scaled by a factor drawn from `random` in [0, 1): 0 gives −20%, 0.5 none, just under 1 about +20%;
 * never more than an hour.
 */
export const webhookRetryDelay = (
  base: Duration.Input,
  attempt: number,
  random: number
): Duration.Duration => {
  const longest = Duration.toMillis(longestWebhookRetryInterval)
  // The exponent is bounded so that a large attempt number cannot overflow to Infinity × 0.
  const nominal = Math.min(Duration.toMillis(base) * 2 ** Math.min(Math.max(attempt - 1, 0), 32), longest)
  const factor = 1 - webhookRetryJitter + 2 * webhookRetryJitter * Math.min(Math.max(random, 0), 1)
  return Duration.millis(Math.min(Math.round(nominal * factor), longest))
}

export interface WebhookRetryInput {
  readonly base: Duration.Input
  /** The attempt that failed, 1 for the first. */
  readonly attempt: number
  /** When it started. */
  readonly attemptedAt: Date
  /** When the first attempt started: the 24 hours count from it. */
  readonly firstAttemptAt: Date
  /** A draw in [0, 1) for the jitter. */
  readonly random: number
}

/** When the next attempt starts, or none when it would start past the 24 hours: the delivery has failed. */
export const nextWebhookAttemptAt = (input: WebhookRetryInput): Option.Option<Date> => {
  const next =
    input.attemptedAt.getTime() +
    Duration.toMillis(webhookRetryDelay(input.base, input.attempt, input.random))
  return next - input.firstAttemptAt.getTime() > Duration.toMillis(webhookRetryWindow)
    ? Option.none()
    : Option.some(new Date(next))
}
