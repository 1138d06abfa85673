/**
 * How often Verify may ask DNS about one domain or claim (contract section 9): a Verify within the
 * cool-down of the last check answers that check's outcome. Read by the API process, which serves
 * Verify; zero lets every Verify check (tests that click Verify several times in a row).
 */
import { verifyCooldownDefault } from "@petstore/domains"
import { Config, Duration } from "effect"
import { durationWithin } from "./DurationRange.js"

const Cooldown = durationWithin(Duration.zero, Duration.hours(1), "must be from 0 seconds to 1 hour")

/** `PETSTORE_VERIFY_COOLDOWN` (a duration such as `10 seconds`, the default). */
export const VerifyCooldownConfig: Config.Config<Duration.Duration> = Config.schema(
  Cooldown,
  "PETSTORE_VERIFY_COOLDOWN"
).pipe(Config.withDefault(verifyCooldownDefault))
