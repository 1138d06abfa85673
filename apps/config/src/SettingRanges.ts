/**
 * The ranges several of the API's settings share (the edge's and the rate limits' counts and
 * periods), each refused outside with a message that names the range.
 */
import { Duration, Schema } from "effect"
import { durationWithin } from "./DurationRange.js"

/** A count from 1 to 1,000,000. */
export const Count = Schema.Int.check(
  Schema.isBetween({ minimum: 1, maximum: 1_000_000 }, { message: "must be an integer from 1 to 1000000" })
)

/** A period from 1 second to 1 day. */
export const Period = durationWithin(Duration.seconds(1), Duration.days(1), "must be from 1 second to 1 day")
