/**
 * @petstore/certificates: TLS certificates of verified domains: the CAA rule (RFC 8659), the certificate
 * issuer and store ports, the lifecycle and issuance schedule of a certificate, the worker's step on one,
 * and the HTTP-01 challenge store. Pure: no I/O and no adapter; adapters implement the ports.
 */
export {
  type CaaLookup,
  type CaaOptions,
  type CaaVerdict,
  caaCandidates,
  caaIssuer,
  caaProblem,
  caaRecordText,
  checkCaa,
  decideCaa,
  knownCaaTags
} from "./CaaPolicy.js"
export { advanceCertificate, diagnoseCertificate } from "./CertificateIssuance.js"
export {
  type CertificateHolder,
  CertificateIssuer,
  CertificateIssuerError,
  CertificateStore,
  OrderState,
  type StoredCertificate
} from "./CertificateIssuer.js"
export {
  CertificateDelay,
  certificateDelayAfter,
  delayed,
  diagnoseDelay,
  isRetryable,
  issuanceFailed,
  issued,
  needsRenewal,
  renewalDueAt,
  renewBefore,
  withFindings
} from "./CertificateLifecycle.js"
export { Http01ChallengeStore } from "./Http01ChallengeStore.js"
export {
  attemptBlocked,
  backoff,
  caUnreachable,
  certificateIssued,
  checksFound,
  firstPollAfter,
  firstRetryAfter,
  isDelayDue,
  isIssuanceDue,
  isRenewal,
  longestPollInterval,
  longestRetryInterval,
  orderRefused,
  orderStarted,
  orderWaiting,
  renewalRetryAfter,
  renewCertificate
} from "./IssuanceSchedule.js"
