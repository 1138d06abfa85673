/**
 * How a verified domain's certificate moves, as pure functions of time and observations: it is
 * requested when the domain verifies (`pending`); the CA issues it (`issued`) or refuses
 * (`failed`, with the CA's words). The checks the specification tells a person to run after 30
 * minutes (does the domain still verify, do CAA records block the CA) are run by the service before
 * every order, and what they find is shown while the certificate is still `pending`: the owner need
 * not wait to learn what stands in the way. When none is issued within the delay (30 minutes unless
 * the application sets `CertificateDelay`) after it was asked for, it becomes `delayed` with the
 * causes found. Re-verify restarts issuance when something stands in its way; an issued certificate
 * is renewed 30 days before it expires.
 */

import type { VerificationVerdict } from "@petstore/domains"
import { type Certificate, makeCertificate, Problem } from "@petstore/domains"
import type { Option } from "effect"
import { Context, Duration } from "effect"

/** No certificate this long after verification: `delayed`, and the causes are looked for. */
export const certificateDelayAfter = Duration.minutes(30)

/**
 * How long after it was asked for a certificate not yet issued becomes `delayed`: the application's
 * setting (`Layer.succeed(CertificateDelay, duration)`), {@link certificateDelayAfter} when it gives none.
 */
export const CertificateDelay = Context.Reference<Duration.Duration>(
  "@petstore/certificates/CertificateDelay",
  { defaultValue: () => certificateDelayAfter }
)

/** An issued certificate is renewed this long before it expires. */
export const renewBefore = Duration.days(30)

/** When a certificate expiring at `expiresAt` is due for renewal. */
export const renewalDueAt = (expiresAt: Date): Date =>
  new Date(expiresAt.getTime() - Duration.toMillis(renewBefore))

/** The CA issued the certificate. */
export const issued = (
  certificate: Certificate,
  validity: { readonly issuedAt: Date; readonly expiresAt: Date }
): Certificate =>
  makeCertificate({
    ...certificate,
    status: "issued",
    issuedAt: validity.issuedAt,
    expiresAt: validity.expiresAt,
    problems: []
  })

/** The CA refused the order; `reason` is its own words. */
export const issuanceFailed = (certificate: Certificate, reason: string): Certificate =>
  makeCertificate({
    ...certificate,
    status: "failed",
    problems: [
      new Problem({
        code: "issuance_failed",
        message: `The certificate authority did not issue the certificate: ${reason}. Fix the cause, then click Re-verify.`
      })
    ]
  })

/** No certificate in time; `problems` are the causes found (none found: an empty list). */
export const delayed = (certificate: Certificate, problems: ReadonlyArray<Problem>): Certificate =>
  makeCertificate({ ...certificate, status: "delayed", problems })

/** Whether an issued certificate is due for renewal at `now`. */
export const needsRenewal = (certificate: Certificate, now: Date): boolean =>
  certificate.status === "issued" &&
  certificate.expiresAt !== null &&
  now.getTime() >= renewalDueAt(certificate.expiresAt).getTime()

/** A certificate not issued yet: what its owner sees is what stands in the way of issuance. */
const isAwaited = (certificate: Certificate): boolean =>
  certificate.status === "pending" || certificate.status === "delayed"

/**
 * What the checks run before an order found (see {@link diagnoseDelay}), shown at once on a
 * certificate not issued yet; nothing found clears what they showed before. An issued certificate
 * being renewed is still served, and keeps what it shows.
 */
export const withFindings = (certificate: Certificate, findings: ReadonlyArray<Problem>): Certificate =>
  isAwaited(certificate) ? makeCertificate({ ...certificate, problems: findings }) : certificate

/**
 * Whether Re-verify may retry the issuance now (contract section 6): it is asked for and not issued
 * (`pending`, with or without a problem found: the owner who has just fixed a CAA record clicks
 * before the next round has looked, or just after it cleared the problem), late (`delayed`) or
 * refused (`failed`). An `issued` certificate has nothing to retry; `none` was never asked for.
 */
export const isRetryable = (certificate: Certificate): boolean =>
  certificate.status === "pending" || certificate.status === "delayed" || certificate.status === "failed"

/**
 * What stands in the way of a certificate (shown while it is pending, and as the causes once it is
 * late), from the domain checked again now and the CAA rule's finding. A lookup that got no answer
 * (`dns_error`) is reported as it is, never as "no longer verifies"; an empty result means no cause
 * was found.
 */
export const diagnoseDelay = (input: {
  readonly hostname: string
  readonly verdict: VerificationVerdict
  readonly caaProblem: Option.Option<Problem>
}): ReadonlyArray<Problem> => {
  const { caaProblem, hostname, verdict } = input
  const caa = caaProblem._tag === "Some" ? [caaProblem.value] : []
  switch (verdict._tag) {
    case "Verified":
      return caa
    case "Inconclusive":
      return [...verdict.problems, ...caa]
    case "Unverified": {
      const found = verdict.problems.flatMap((problem) => problem.found ?? [])
      const causes = verdict.problems.map((problem) => problem.message).join(" ")
      const noLongerVerifies = new Problem({
        code: "domain_no_longer_verifies",
        message: `${hostname} no longer verifies, so no certificate can be issued for it: ${causes} Then click Re-verify.`,
        ...(found.length > 0 ? { found } : {})
      })
      return [noLongerVerifies, ...caa]
    }
  }
}
