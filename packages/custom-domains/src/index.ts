/**
 * @petstore/custom-domains: custom domains for documentation sites: projects and plans, DNS names and
 * hostnames, DNS verification, CAA, certificates and their schedule, the edge's decisions and the
 * ports these are written against. Pure: no I/O and no adapter; adapters implement the ports.
 */
import * as DnsName from "./DnsName.js"

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
  OrderRef,
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
  restartIssuance,
  withFindings
} from "./CertificateLifecycle.js"
export {
  applyClaimCheck,
  Claim,
  ClaimRecord,
  ClaimResource,
  ClaimStatus,
  claimCovers,
  claimRecheckInterval,
  claimRetryAfterDnsError,
  lapseClaim,
  newClaim
} from "./Claim.js"
export { checkDueClaims, type DueClaimRound } from "./ClaimChecks.js"
export { ClaimRepository } from "./ClaimRepository.js"
export {
  type ClaimCheck,
  type CreatedClaim,
  checkClaim,
  claimCheckWrites,
  createClaim,
  deleteClaim,
  getClaim,
  listClaims,
  verifyClaim
} from "./Claims.js"
export { claimLimitRefusal, domainLimitRefusal } from "./CountLimits.js"
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
  Verification,
  workDueAt
} from "./CustomDomain.js"
export {
  checkDueCustomDomains,
  type DueCheckOptions,
  type DueCheckRound,
  workOnCustomDomain
} from "./CustomDomainChecks.js"
export {
  applyVerdict,
  hasLostOwnership,
  loseOwnership,
  newCustomDomain,
  restartVerificationWindow,
  withOwnershipRequired
} from "./CustomDomainLifecycle.js"
export { Problem, ProblemCode } from "./CustomDomainProblem.js"
export {
  type CustomDomainLease,
  CustomDomainRepository,
  type DecidedWrites,
  type HostnameHold,
  isRivalOf,
  type LeasedWork
} from "./CustomDomainRepository.js"
export {
  addDomain,
  type CheckObservation,
  changePlan,
  checkDomain,
  checkWrites,
  createProject,
  type DomainCheck,
  type EdgeLookups,
  type EdgeResolution,
  findOwnedProject,
  getDomain,
  getDomainConfig,
  type HostnameOwnership,
  listDomains,
  listProjects,
  observeDomain,
  ownershipFactsOf,
  ownershipOf,
  putDomainConfig,
  recordProjectDeploy,
  removeDomain,
  resolveEdge,
  resolveEdgeFrom,
  reverifyDomain,
  verifyNow
} from "./CustomDomains.js"
export {
  type Decision,
  decideAndStore,
  decisionAttempts,
  noWrites,
  writtenClaim,
  writtenDomain
} from "./DecidedWrites.js"
export { CaaRecord, DnsAnswer, DnsFailure, DnsFailureReason, DnsNoRecords, DnsRecords } from "./DnsAnswer.js"
export { DnsResolver } from "./DnsResolver.js"
export {
  DomainConfig,
  DomainRedirect,
  defaultDomainConfig,
  normaliseDomainConfig,
  redirectStatus,
  validateDomainConfig,
  withoutDomain
} from "./DomainConfig.js"
export {
  DomainEvent,
  DomainEventId,
  DomainEventType,
  domainEventTypes,
  eventRetention
} from "./DomainEvent.js"
export {
  type DomainEventPage,
  type DomainEventQuery,
  DomainEventRepository
} from "./DomainEventRepository.js"
export { decideForCustomDomain, decideForDefaultHostname, type EdgeDecision } from "./EdgeDecision.js"
export {
  ClaimNotFound,
  DeployRequired,
  DomainClaimed,
  DomainNotFound,
  HostnameTaken,
  InvalidDomainRequest,
  LimitReached,
  NotReverifiable,
  PlanRequired,
  ProjectIdTaken,
  ProjectNotFound,
  WebhookNotFound
} from "./Errors.js"
export { Hostname, HostnameKind, hostnameKind, normaliseHostname } from "./Hostname.js"
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
  renewCertificate,
  requestCertificate
} from "./IssuanceSchedule.js"
export { defaultLimits, Limits, type LimitValues, limitNames, limitReached } from "./Limits.js"
export {
  type HostnameRelease,
  needsRecord,
  type OwnershipFacts,
  type OwnershipProof,
  OwnershipRecord,
  type OwnershipRequirement,
  OwnershipToken,
  ownershipLostProblem,
  ownershipProof,
  ownershipRecord,
  ownershipRecordName,
  ownershipRecordValue,
  ownershipRequiredProblem,
  ownershipRequirement,
  ownershipTokenBytes,
  ownershipTokenFrom,
  recentHoldWindow,
  wildcardProbeName,
  wildcardProblem
} from "./Ownership.js"
export { OwnershipRepository } from "./OwnershipRepository.js"
export { type OwnershipObservation, type OwnershipOutcome, verdictWithOwnership } from "./OwnershipVerdict.js"
export { isPaidPlan, Plan } from "./Plan.js"
export { customHostname, PlatformSettings, reservedNamesOf } from "./PlatformSettings.js"
export {
  Deploy,
  DeployStatus,
  defaultHostnameOf,
  hasSucceededDeploy,
  Project,
  ProjectId,
  recordDeploy
} from "./Project.js"
export { listProjectEvents, purgeExpiredEvents } from "./ProjectEvents.js"
export { type ProjectPage, type ProjectQuery, ProjectRepository } from "./ProjectRepository.js"
export {
  announcingCertificates,
  announcingCustomDomains,
  announcingProjects,
  type HubOptions,
  inProcessServingChangeHubLayer,
  makeServingChangeHub,
  ServingChangeHub,
  servingChangesLayer
} from "./ServingChangeHub.js"
export { type ServingChange, type ServingChangeListener, ServingChanges } from "./ServingChanges.js"
export { firstVersion, StoredVersion } from "./StoredVersion.js"
export { Timestamp } from "./Timestamp.js"
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
export {
  CreatedWebhookResource,
  createdWebhookResource,
  DeliveryAttempt,
  DeliveryAttemptStatus,
  DeliveryFailureReason,
  enabledWebhook,
  httpFailureReason,
  newWebhook,
  RotatedWebhookSecretResource,
  rotatedWebhook,
  rotatedWebhookSecretResource,
  signingSecretsOf,
  Webhook,
  WebhookDelivery,
  type WebhookDeliveryKey,
  WebhookDeliveryStatus,
  WebhookEvents,
  WebhookId,
  WebhookResource,
  WebhookSecret,
  WebhookStatus,
  webhookIdBytes,
  webhookIdFrom,
  webhookResource,
  webhookSecretBytes,
  webhookSecretFrom,
  webhookSecretOverlap
} from "./Webhook.js"
export {
  claimDueDeliveries,
  type DeliveryOptions,
  type DeliveryPassOptions,
  deliverClaimed,
  deliverDueWebhooks,
  deliverWebhook,
  failureReasonOf,
  type OutcomeRules,
  recordOutcome
} from "./WebhookDeliveries.js"
export {
  type ClaimedDelivery,
  type DeliveryResult,
  WebhookDeliveryRepository
} from "./WebhookDeliveryRepository.js"
export {
  defaultWebhookDisableAfter,
  healthAfterAttempt,
  type WebhookHealthChange
} from "./WebhookDisabling.js"
export { type NewWebhook, WebhookRepository } from "./WebhookRepository.js"
export {
  defaultWebhookRetryBase,
  longestWebhookRetryInterval,
  nextWebhookAttemptAt,
  type WebhookRetryInput,
  webhookRetryDelay,
  webhookRetryJitter,
  webhookRetryWindow
} from "./WebhookRetry.js"
export { SendOutcome, type WebhookRequest, WebhookSender } from "./WebhookSender.js"
export {
  createWebhook,
  deleteWebhook,
  deliveryAttemptsShown,
  getWebhook,
  listDeliveryAttempts,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
  validateWebhookEvents,
  type WebhookChange,
  type WebhookInput
} from "./Webhooks.js"
export {
  type AddressClass,
  classifyAddress,
  isRefusedAddress,
  longestWebhookUrl,
  validateWebhookUrl,
  type WebhookUrlOptions
} from "./WebhookUrlRule.js"
// A namespace, by name: its functions are named to be read after it (`DnsName.normalise`).
export { DnsName }
