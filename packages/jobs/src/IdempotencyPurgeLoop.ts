/**
 * The purge of expired idempotency keys (`purgeExpiredIdempotencyKeys`): at start, then every hour,
 * for the life of the server that runs it (the API). Every replica runs it; their purges skip the rows
 * another is deleting.
 */
import { purgeExpiredIdempotencyKeys } from "@petstore/catalogue"
import { Duration } from "effect"
import { runPurgeLoop } from "./PurgeLoop.js"

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

/**
 * Purges at once, then after every `interval`, until interrupted. A purge that fails (storage down)
 * is logged and tried again at the next interval: the keys it left are still treated as expired.
 */
export const runIdempotencyPurge = (options: IdempotencyPurgeOptions = defaultIdempotencyPurge) =>
  runPurgeLoop({
    forgets: "expired idempotency keys",
    round: purgeExpiredIdempotencyKeys(options.batchSize),
    interval: options.interval
  })
