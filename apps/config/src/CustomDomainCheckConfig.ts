/**
 * The knobs of the loops that check custom domains, recheck claims and deliver webhooks
 * (`PETSTORE_WORKER_*`), with the webhooks' retry base, disabling period and concurrency
 * (`PETSTORE_WEBHOOK_*`): read by the worker, and by the API when it runs those loops itself (storage
 * no separate worker can open). The holder of the leases and the sender's timeout are the process's,
 * not configuration: the app adds them.
 */
import { Config, Duration, Schema } from "effect"
import { WebhookConfig } from "./WebhookConfig.js"

export interface CustomDomainCheckSettings {
  /** `PETSTORE_WORKER_CONCURRENCY`: how many domains of a round are checked at once (default 16). */
  readonly concurrency: number
  /** `PETSTORE_WORKER_BATCH_SIZE`: how many domains (or claims) one round claims (default 100). */
  readonly batchSize: number
  /** `PETSTORE_WORKER_POLL_INTERVAL`: the pause after a round that found less than a full batch (1 second). */
  readonly pollInterval: Duration.Duration
  /** `PETSTORE_WORKER_LEASE`: how long a claimed check may take before another worker takes it over (60 s). */
  readonly lease: Duration.Duration
  /** `PETSTORE_WEBHOOK_RETRY_BASE`: the wait after a delivery's first failed attempt. */
  readonly retryBase: Duration.Duration
  /** `PETSTORE_WEBHOOK_DISABLE_AFTER`: how long every delivery may fail before its webhook is disabled. */
  readonly disableAfter: Duration.Duration
  /** `PETSTORE_WEBHOOK_CONCURRENCY`: the most deliveries the process sends at once. */
  readonly deliveriesInFlight: number
}

const integerUpTo = (name: string, maximum: number, message: string) =>
  Config.schema(Schema.Int.check(Schema.makeFilter((n: number) => n >= 1 && n <= maximum, { message })), name)

export const CustomDomainCheckConfig: Config.Config<CustomDomainCheckSettings> = Config.all({
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
    retryBase: webhooks.retryBase,
    disableAfter: webhooks.disableAfter,
    deliveriesInFlight: webhooks.concurrency
  }))
)
