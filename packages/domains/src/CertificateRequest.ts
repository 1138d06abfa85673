/**
 * A verified domain asks for its certificate at once: the certificate becomes `pending` and its
 * issuance is due now, for the worker's next round (see `@petstore/certificates` for what follows:
 * the order, its polling, the delay, renewals). Verification and Re-verify both ask this way.
 */
import {
  type Certificate,
  type CustomDomain,
  type Issuance,
  makeCertificate,
  makeCustomDomain,
  makeIssuance
} from "./CustomDomain.js"

/** The domain with `issuance` (and `certificate`, unchanged unless given). */
export const withIssuance = (domain: CustomDomain, issuance: Issuance, certificate = domain.certificate) =>
  makeCustomDomain({ ...domain, certificate, issuance })

/** An issuance asked for at `now`, with no order yet, due at once. */
export const freshIssuance = (now: Date): Issuance =>
  makeIssuance({ requestedAt: now, order: null, nextAttemptAt: now, attempts: 0 })

/**
 * Re-verify (or a renewal): a new order. The dates of the certificate already issued are kept, as it
 * is still served until it expires or is replaced.
 */
export const restartIssuance = (certificate: Certificate): Certificate =>
  makeCertificate({ ...certificate, status: "pending", problems: [] })

/** A certificate is asked for now (verification or Re-verify): `pending`, worked on at once. */
export const requestCertificate = (domain: CustomDomain, now: Date): CustomDomain =>
  withIssuance(domain, freshIssuance(now), restartIssuance(domain.certificate))
