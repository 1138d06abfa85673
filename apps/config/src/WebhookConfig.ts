/**
 * How webhooks are delivered, as both processes read it: the API refuses at creation the URLs the
 * delivery would refuse, and whichever process delivers (the API's own loop, or the worker) must
 * refuse and retry alike, so one reading serves both.
 */
import { Config, Duration, Schema, SchemaTransformation } from "effect"

/**
 * Exactly `true` or `false`: lifting the refusal of private addresses is a security decision, so a
 * value that only looks like one (`yes`, `1`, `TRUE `) is refused rather than guessed.
 */
const AllowPrivate = Schema.Literals(["true", "false"])
  .annotate({ message: "must be true or false" })
  .pipe(
    Schema.decodeTo(
      Schema.Boolean,
      SchemaTransformation.transform({
        decode: (text) => text === "true",
        encode: (allowed): "true" | "false" => (allowed ? "true" : "false")
      })
    )
  )

/** The shortest and longest base of the retry schedule. */
const shortestRetryBase = Duration.millis(100)
const longestRetryBase = Duration.hours(1)

const RetryBase = Schema.DurationFromString.check(
  Schema.makeFilter(
    (base: Duration.Duration) =>
      Duration.isGreaterThanOrEqualTo(base, shortestRetryBase) &&
      Duration.isLessThanOrEqualTo(base, longestRetryBase),
    { message: "must be from 100 millis to 1 hour" }
  )
)

/** The shortest and longest disabling period: under a second would disable at the first failure. */
const DisableAfter = Schema.DurationFromString.check(
  Schema.makeFilter(
    (after: Duration.Duration) =>
      Duration.isGreaterThanOrEqualTo(after, Duration.seconds(1)) &&
      Duration.isLessThanOrEqualTo(after, Duration.days(365)),
    { message: "must be from 1 second to 365 days" }
  )
)

const Concurrency = Schema.Int.check(
  Schema.isBetween({ minimum: 1, maximum: 10_000 }, { message: "must be an integer from 1 to 10000" })
)

export interface WebhookOptions {
  /**
   * `PETSTORE_WEBHOOK_ALLOW_PRIVATE`: `http` URLs and loopback, private, link-local and unique-local
   * addresses are accepted (tests, private deployments). Default false: `https` to public addresses only.
   */
  readonly allowPrivate: boolean
  /** `PETSTORE_WEBHOOK_RETRY_BASE`: attempt n+1 comes `base × 2^(n−1)` after attempt n. Default 5 seconds. */
  readonly retryBase: Duration.Duration
  /**
   * `PETSTORE_WEBHOOK_DISABLE_AFTER`: a webhook whose every delivery failed for this long is disabled.
   * Default 72 hours.
   */
  readonly disableAfter: Duration.Duration
  /**
   * `PETSTORE_WEBHOOK_CONCURRENCY`: the most deliveries a delivering process sends at once, one per
   * webhook at most. Default 256: a slow receiver holds one of them for up to the 10-second timeout.
   */
  readonly concurrency: number
}

export const WebhookConfig: Config.Config<WebhookOptions> = Config.all({
  allowPrivate: Config.schema(AllowPrivate, "PETSTORE_WEBHOOK_ALLOW_PRIVATE").pipe(Config.withDefault(false)),
  retryBase: Config.schema(RetryBase, "PETSTORE_WEBHOOK_RETRY_BASE").pipe(
    Config.withDefault(Duration.seconds(5))
  ),
  disableAfter: Config.schema(DisableAfter, "PETSTORE_WEBHOOK_DISABLE_AFTER").pipe(
    Config.withDefault(Duration.hours(72))
  ),
  concurrency: Config.schema(Concurrency, "PETSTORE_WEBHOOK_CONCURRENCY").pipe(Config.withDefault(256))
})
