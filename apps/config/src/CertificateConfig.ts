/**
 * How long a certificate may take before its owner is told it is late, as both processes read it:
 * the worker (the API's own loop, or the worker process) marks it `delayed` after that long, so the
 * two must agree.
 */
import { certificateDelayAfter } from "@petstore/certificates"
import { Config, Duration } from "effect"
import { durationWithin } from "./DurationRange.js"

const DelayAfter = durationWithin(Duration.seconds(1), Duration.days(1), "must be from 1 second to 1 day")

/**
 * `PETSTORE_CERTIFICATE_DELAY_AFTER` (a duration such as `30 minutes`, the default): a certificate
 * not issued that long after it was asked for becomes `delayed`. What stands in its way is shown
 * before that, as soon as it is found.
 */
export const CertificateDelayConfig: Config.Config<Duration.Duration> = Config.schema(
  DelayAfter,
  "PETSTORE_CERTIFICATE_DELAY_AFTER"
).pipe(Config.withDefault(certificateDelayAfter))
