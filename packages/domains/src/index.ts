/**
 * @petstore/domains: custom domains as DNS sees them: DNS names and hostnames, the platform's own names, DNS
 * answers and the resolver port, the domain record with its DNS instruction and ownership record, the
 * verification rules (verdict, schedule, lifecycle), Verify's cool-down and the domain repository port.
 * Pure: no I/O and no adapter; adapters implement the ports.
 */
import * as DnsName from "./DnsName.js"

export { freshIssuance, requestCertificate, restartIssuance, withIssuance } from "./CertificateRequest.js"
export {
  Certificate,
  CertificateStatus,
  CustomDomain,
  type CustomDomainKey,
  CustomDomainResource,
  CustomDomainStatus,
  DnsRecordInstruction,
  dnsInstruction,
  Issuance,
  instructedTtl,
  isCheckDue,
  makeCertificate,
  makeCustomDomain,
  makeIssuance,
  makeVerification,
  OrderRef,
  Verification,
  workDueAt
} from "./CustomDomain.js"
export {
  applyVerdict,
  hasLostOwnership,
  loseOwnership,
  newCustomDomain,
  restartVerificationWindow,
  withOwnershipRequired
} from "./CustomDomainLifecycle.js"
export {
  CustomDomainRepository,
  type HostnameHold,
  isRivalOf,
  type LeasedWork
} from "./CustomDomainRepository.js"
export { CaaRecord, DnsAnswer, DnsFailure, DnsFailureReason, DnsNoRecords, DnsRecords } from "./DnsAnswer.js"
export { DnsResolver } from "./DnsResolver.js"
export { domainLimitRefusal } from "./DomainLimit.js"
export { observeDomain } from "./DomainObservation.js"
export {
  DeployRequired,
  DomainNotFound,
  HostnameTaken,
  InvalidDomainRequest,
  NotReverifiable,
  PlanRequired
} from "./Errors.js"
export { Hostname, HostnameKind, hostnameKind, normaliseHostname } from "./Hostname.js"
export {
  OwnershipRecord,
  OwnershipToken,
  ownershipRecord,
  ownershipRecordName,
  ownershipRecordValue,
  ownershipTokenBytes,
  ownershipTokenFrom
} from "./OwnershipRecord.js"
export { customHostname, defaultHostname, PlatformSettings, reservedNamesOf } from "./PlatformSettings.js"
export { Problem, ProblemCode } from "./Problem.js"
export { validatingConstructor } from "./ValidatingConstructor.js"
export {
  deadlineFrom,
  firstRecheckAfter,
  longestRecheckInterval,
  nextCheckAt,
  verificationWindow,
  windowStartOf
} from "./VerificationSchedule.js"
export { type DnsObservation, type VerificationVerdict, verdictFromDns } from "./VerificationVerdict.js"
export { isAnsweredBy, isCoolingDown, VerifyCooldown, verifyCooldownDefault } from "./VerifyCooldown.js"
// A namespace, by name: its functions are named to be read after it (`DnsName.normalise`).
export { DnsName }
