/**
 * When a pending domain is checked again: soon at first, then less and less often, until the 48-hour
 * window for DNS propagation closes. The interval equals the time already spent waiting, between 30
 * seconds and 15 minutes, so it doubles from 30 s and is a pure function of the window and the clock.
 */
import { Duration } from "effect"

/** DNS changes can take up to 48 hours to propagate. */
export const verificationWindow = Duration.hours(48)
export const firstRecheckAfter = Duration.seconds(30)
export const longestRecheckInterval = Duration.minutes(15)

export const windowStartOf = (deadline: Date): Date =>
  new Date(deadline.getTime() - Duration.toMillis(verificationWindow))

export const deadlineFrom = (windowStart: Date): Date =>
  new Date(windowStart.getTime() + Duration.toMillis(verificationWindow))

/** When to check next after a check at `now` in the window that closes at `deadline`; never past it. */
export const nextCheckAt = (deadline: Date, now: Date): Date => {
  const waited = now.getTime() - windowStartOf(deadline).getTime()
  const interval = Math.min(
    Math.max(waited, Duration.toMillis(firstRecheckAfter)),
    Duration.toMillis(longestRecheckInterval)
  )
  return new Date(Math.min(now.getTime() + interval, deadline.getTime()))
}
