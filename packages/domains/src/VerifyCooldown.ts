/**
 * Verify checks DNS at most once per cool-down per domain or claim (contract section 9): a Verify
 * within the window answers the last outcome, as stored, without a DNS query. The window runs from
 * the last DNS check of that domain or claim, whoever made it (the worker, a Verify), as its
 * `lastCheckedAt` shows: hammering Verify costs the platform nothing and gives nobody a faster check.
 */
import { Context, DateTime, Duration, Effect } from "effect"

/** The contract's window. */
export const verifyCooldownDefault = Duration.seconds(10)

/**
 * The window as the application sets it (`Layer.succeed(VerifyCooldown, duration)`),
 * {@link verifyCooldownDefault} when it sets none; zero: every Verify checks.
 */
export const VerifyCooldown = Context.Reference<Duration.Duration>("@petstore/domains/VerifyCooldown", {
  defaultValue: () => verifyCooldownDefault
})

/** Whether a Verify at `now` falls in the window of a check made at `lastCheckedAt` (null: never checked). */
export const isCoolingDown = (lastCheckedAt: Date | null, now: Date) =>
  Effect.map(
    VerifyCooldown,
    (cooldown) =>
      lastCheckedAt !== null && now.getTime() - lastCheckedAt.getTime() < Duration.toMillis(cooldown)
  )

/**
 * Whether a check made at `lastCheckedAt` answers a Verify clicked at `clickedAt`: one made after the
 * click (by a concurrent Verify, the worker), or within the cool-down of the last check. A Verify that
 * lost its write to a check made since its click answers that one instead of checking again: fifty
 * Verifies clicked at once store one check, not fifty in turn (each bumping the row the others, and
 * the account proving the name, must decide from again).
 */
export const isAnsweredBy = (lastCheckedAt: Date | null, clickedAt: Date) =>
  lastCheckedAt !== null && lastCheckedAt.getTime() > clickedAt.getTime()
    ? Effect.succeed(true)
    : Effect.flatMap(DateTime.nowAsDate, (now) => isCoolingDown(lastCheckedAt, now))
