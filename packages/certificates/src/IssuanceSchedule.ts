/**
 * How the worker's work on a verified domain's certificate moves, as pure functions of the domain,
 * the observation and the time: asked for (on verification, Re-verify or renewal), an order opened,
 * polled with backoff, issued (then scheduled for renewal 30 days before expiry), refused by the CA,
 * or not started because DNS or CAA would make the CA refuse: what those checks find is shown at
 * once. A certificate still not issued some time after it was asked for (`delayAfter`, the
 * application's setting, 30 minutes by default) becomes `delayed` with the causes found, and the work
 * goes on: an owner who fixes DNS sees the certificate arrive without clicking anything; Re-verify
 * only makes it happen at once.
 */

import type { OrderRef } from "@petstore/domains"
import {
  type CustomDomain,
  freshIssuance,
  type Issuance,
  makeCertificate,
  makeCustomDomain,
  makeIssuance,
  Problem,
  withIssuance
} from "@petstore/domains"
import { Duration } from "effect"
import {
  certificateDelayAfter,
  delayed,
  issuanceFailed,
  issued,
  renewalDueAt,
  withFindings
} from "./CertificateLifecycle.js"

/** An open order is polled after 2 s, then less often, at most every 5 minutes. */
export const firstPollAfter = Duration.seconds(2)
export const longestPollInterval = Duration.minutes(5)
/** An order that could not be opened (DNS, CAA, the CA unreachable) is tried again after 30 s, then less often. */
export const firstRetryAfter = Duration.seconds(30)
export const longestRetryInterval = Duration.minutes(15)
/** A renewal the CA refused is tried again a day later, while the current certificate still serves. */
export const renewalRetryAfter = Duration.days(1)

const plus = (time: Date, duration: Duration.Duration): Date =>
  new Date(time.getTime() + Duration.toMillis(duration))

/** Doubling from `first` with each attempt, never beyond `longest`. */
export const backoff = (attempts: number, first: Duration.Duration, longest: Duration.Duration) =>
  Duration.millis(
    Math.min(Duration.toMillis(first) * 2 ** Math.min(attempts, 30), Duration.toMillis(longest))
  )

/** The issued certificate is due for renewal: a new order, while the current one keeps being served. */
export const renewCertificate = (domain: CustomDomain, now: Date): CustomDomain =>
  withIssuance(domain, freshIssuance(now))

/** Whether the worker has certificate work for `domain` at `now`. */
export const isIssuanceDue = (domain: CustomDomain, now: Date): boolean =>
  domain.status === "verified" &&
  domain.issuance !== null &&
  domain.issuance.nextAttemptAt !== null &&
  domain.issuance.nextAttemptAt.getTime() <= now.getTime()

/** Whether a renewal (not a first issuance) is under way: the current certificate is still `issued`. */
export const isRenewal = (domain: CustomDomain): boolean => domain.certificate.status === "issued"

/**
 * A certificate not issued yet, asked for `delayAfter` ago or more (30 minutes unless the application
 * says otherwise): it must become `delayed`.
 */
export const isDelayDue = (
  domain: CustomDomain,
  now: Date,
  delayAfter: Duration.Duration = certificateDelayAfter
): boolean =>
  domain.certificate.status !== "issued" &&
  domain.certificate.status !== "failed" &&
  domain.issuance !== null &&
  now.getTime() >= domain.issuance.requestedAt.getTime() + Duration.toMillis(delayAfter)

/**
 * The checks run before an order found `findings`: shown at once while the certificate is not issued
 * yet (nothing found clears them), so that the owner learns what stands in the way as soon as the
 * service does (see `withFindings`).
 */
export const checksFound = (domain: CustomDomain, findings: ReadonlyArray<Problem>): CustomDomain =>
  makeCustomDomain({ ...domain, certificate: withFindings(domain.certificate, findings) })

/**
 * After an attempt that made no progress: once `delayAfter` has passed, `delayed` with `causes` (what
 * the diagnosis found); before that, still `pending`, showing what the checks found (see
 * {@link checksFound}) and nothing else (a CA that could not be reached is the service's to retry, not
 * the owner's to fix), and looked at again no later than the moment it becomes late, so that the delay
 * is reported on time whatever the backoff.
 */
const noProgress = (
  domain: CustomDomain,
  issuance: Issuance,
  causes: ReadonlyArray<Problem>,
  now: Date,
  delayAfter: Duration.Duration
) => {
  if (isDelayDue(domain, now, delayAfter))
    return withIssuance(domain, issuance, delayed(domain.certificate, causes))
  const lateAt = issuance.requestedAt.getTime() + Duration.toMillis(delayAfter)
  const next =
    issuance.nextAttemptAt !== null && domain.certificate.status === "pending"
      ? new Date(Math.min(issuance.nextAttemptAt.getTime(), lateAt))
      : issuance.nextAttemptAt
  return withIssuance(domain, makeIssuance({ ...issuance, nextAttemptAt: next }))
}

/** The order is open; it is polled shortly. */
export const orderStarted = (domain: CustomDomain, order: OrderRef, now: Date): CustomDomain =>
  withIssuance(
    domain,
    makeIssuance({
      requestedAt: domain.issuance?.requestedAt ?? now,
      order,
      nextAttemptAt: plus(now, firstPollAfter),
      attempts: 0
    })
  )

/** Another attempt after a backoff from `first` to `longest`, keeping the open order or not. */
const tryAgain = (
  domain: CustomDomain,
  keepOrder: boolean,
  interval: { readonly first: Duration.Duration; readonly longest: Duration.Duration },
  causes: ReadonlyArray<Problem>,
  now: Date,
  delayAfter: Duration.Duration
): CustomDomain => {
  const attempts = (domain.issuance?.attempts ?? 0) + 1
  return noProgress(
    domain,
    makeIssuance({
      requestedAt: domain.issuance?.requestedAt ?? now,
      order: keepOrder ? (domain.issuance?.order ?? null) : null,
      nextAttemptAt: plus(now, backoff(attempts, interval.first, interval.longest)),
      attempts
    }),
    causes,
    now,
    delayAfter
  )
}

/**
 * The CA has not finished the order yet. `causes` is the diagnosis, run only once the delay is due
 * (see {@link isDelayDue}); before that it is ignored.
 */
export const orderWaiting = (
  domain: CustomDomain,
  causes: ReadonlyArray<Problem>,
  now: Date,
  delayAfter: Duration.Duration = certificateDelayAfter
): CustomDomain =>
  tryAgain(domain, true, { first: firstPollAfter, longest: longestPollInterval }, causes, now, delayAfter)

/**
 * No order was opened or the open one cannot go on: DNS or CAA would make the CA refuse (`causes`,
 * already shown by {@link checksFound}), or the CA could not be reached (shown only once the delay is
 * due). Tried again later, with a fresh order.
 */
export const attemptBlocked = (
  domain: CustomDomain,
  causes: ReadonlyArray<Problem>,
  now: Date,
  delayAfter: Duration.Duration = certificateDelayAfter
): CustomDomain =>
  tryAgain(domain, false, { first: firstRetryAfter, longest: longestRetryInterval }, causes, now, delayAfter)

/** The problem shown when the CA itself could not be reached until the delay (its details stay in the logs). */
export const caUnreachable = new Problem({
  code: "issuance_failed",
  message:
    "The certificate authority could not be reached to issue the certificate; the service keeps trying, and nothing needs to change on your side."
})

/** The CA issued the certificate: `issued`, and renewed 30 days before it expires. */
export const certificateIssued = (
  domain: CustomDomain,
  validity: { readonly issuedAt: Date; readonly expiresAt: Date }
): CustomDomain =>
  withIssuance(
    domain,
    makeIssuance({
      requestedAt: domain.issuance?.requestedAt ?? validity.issuedAt,
      order: null,
      nextAttemptAt: renewalDueAt(validity.expiresAt),
      attempts: 0
    }),
    issued(domain.certificate, validity)
  )

/**
 * The CA refused the order (`reason`, its own words); `causes` is what the diagnosis found. A first
 * issuance is `failed` and waits for Re-verify; a refused renewal keeps the certificate being served
 * (`issued`, with the problem shown) and is tried again a day later.
 */
export const orderRefused = (
  domain: CustomDomain,
  reason: string,
  causes: ReadonlyArray<Problem>,
  now: Date
): CustomDomain => {
  const refused = issuanceFailed(domain.certificate, reason)
  const problems = [...refused.problems, ...causes]
  if (isRenewal(domain)) {
    return withIssuance(
      domain,
      makeIssuance({
        requestedAt: domain.issuance?.requestedAt ?? now,
        order: null,
        nextAttemptAt: plus(now, renewalRetryAfter),
        attempts: (domain.issuance?.attempts ?? 0) + 1
      }),
      makeCertificate({ ...domain.certificate, problems })
    )
  }
  return withIssuance(
    domain,
    makeIssuance({
      requestedAt: domain.issuance?.requestedAt ?? now,
      order: null,
      nextAttemptAt: null,
      attempts: (domain.issuance?.attempts ?? 0) + 1
    }),
    makeCertificate({ ...refused, problems })
  )
}
