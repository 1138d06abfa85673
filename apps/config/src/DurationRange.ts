/**
 * A duration setting's schema: text such as `10 seconds`, refused outside `[shortest, longest]` with
 * `message` (which names the range, as the variable's refusal shows it).
 */
import { Duration, Schema } from "effect"

export const durationWithin = (shortest: Duration.Duration, longest: Duration.Duration, message: string) =>
  Schema.DurationFromString.check(
    Schema.makeFilter(
      (duration: Duration.Duration) =>
        Duration.isGreaterThanOrEqualTo(duration, shortest) &&
        Duration.isLessThanOrEqualTo(duration, longest),
      { message }
    )
  )
