/**
 * @petstore/custom-domains (being split).
 */
import * as DnsName from "./DnsName.js"

export { addDomain } from "./AddDomain.js"
export {
  caaCandidates,
  caaIssuer,
  type CaaLookup,
  type CaaOptions,
  caaProblem,
  caaRecordText,
  type CaaVerdict,
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
export { freshIssuance, requestCertificate, restartIssuance, withIssuance } from "./CertificateRequest.js"
export {
  applyClaimCheck,
  Claim,
  claimCovers,
  claimRecheckInterval,
  ClaimRecord,
  ClaimResource,
  claimRetryAfterDnsError,
  ClaimStatus,
  lapseClaim,
  newClaim
} from "./Claim.js"
export { checkDueClaims, type DueClaimRound } from "./ClaimChecks.js"
export { claimLimitRefusal } from "./ClaimLimit.js"
export { ClaimRepository } from "./ClaimRepository.js"
export {
  checkClaim,
  type ClaimCheck,
  claimCheckWrites,
  createClaim,
  type CreatedClaim,
  deleteClaim,
  getClaim,
  listClaims,
  verifyClaim
} from "./Claims.js"
export {
  Certificate,
  CertificateStatus,
  CustomDomain,
  type CustomDomainKey,
  CustomDomainResource,
  CustomDomainStatus,
  dnsInstruction,
  DnsRecordInstruction,
  instructedTtl,
  isCheckDue,
  Issuance,
  makeCertificate,
  makeCustomDomain,
  makeIssuance,
  makeVerification,
  OrderRef,
  Verification,
  workDueAt
} from "./CustomDomain.js"
export { checkDueCustomDomains, workOnCustomDomain } from "./CustomDomainChecks.js"
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
  CustomDomainRepository,
  type HostnameHold,
  isRivalOf,
  type LeasedWork
} from "./CustomDomainRepository.js"
export {
  decideAndStore,
  type Decision,
  decisionAttempts,
  noWrites,
  writtenClaim,
  writtenDomain
} from "./DecidedWrites.js"
export { type DecidedWrites, DecidedWritesStore } from "./DecidedWritesStore.js"
export { CaaRecord, DnsAnswer, DnsFailure, DnsFailureReason, DnsNoRecords, DnsRecords } from "./DnsAnswer.js"
export { DnsResolver } from "./DnsResolver.js"
export { checkDomain, type CheckObservation, checkWrites, type DomainCheck } from "./DomainCheck.js"
export {
  defaultDomainConfig,
  DomainConfig,
  DomainRedirect,
  normaliseDomainConfig,
  redirectStatus,
  validateDomainConfig,
  withoutDomain
} from "./DomainConfig.js"
export { DomainConfigRepository } from "./DomainConfigRepository.js"
export { domainConfigOf, getDomainConfig, putDomainConfig } from "./DomainConfigs.js"
export {
  DeployRequired,
  DomainNotFound,
  HostnameTaken,
  InvalidDomainRequest,
  NotReverifiable,
  PlanRequired
} from "./DomainErrors.js"
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
export { domainLimitRefusal } from "./DomainLimit.js"
export { observeDomain } from "./DomainObservation.js"
export { decideForCustomDomain, decideForDefaultHostname, type EdgeDecision } from "./EdgeDecision.js"
export { type EdgeLookups, type EdgeResolution, resolveEdge, resolveEdgeFrom } from "./EdgeResolution.js"
export { Hostname, HostnameKind, hostnameKind, normaliseHostname } from "./Hostname.js"
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
export { type DueCheckOptions, type DueCheckRound, type Lease } from "./Lease.js"
export { defaultLimits, limitNames, LimitReached, limitReached, Limits, type LimitValues } from "./Limits.js"
export { listDomains } from "./ListDomains.js"
export { getDomain } from "./OwnedDomains.js"
export {
  type HostnameRelease,
  needsRecord,
  type OwnershipFacts,
  ownershipLostProblem,
  type OwnershipProof,
  ownershipProof,
  ownershipRequiredProblem,
  type OwnershipRequirement,
  ownershipRequirement,
  recentHoldWindow,
  wildcardProbeName,
  wildcardProblem
} from "./Ownership.js"
export { ClaimNotFound, DomainClaimed } from "./OwnershipErrors.js"
export { type HostnameOwnership, ownershipFactsOf, ownershipOf } from "./OwnershipFacts.js"
export {
  OwnershipRecord,
  ownershipRecord,
  ownershipRecordName,
  ownershipRecordValue,
  OwnershipToken,
  ownershipTokenBytes,
  ownershipTokenFrom
} from "./OwnershipRecord.js"
export { OwnershipRepository } from "./OwnershipRepository.js"
export { type OwnershipObservation, type OwnershipOutcome, verdictWithOwnership } from "./OwnershipVerdict.js"
export { isPaidPlan, Plan } from "./Plan.js"
export { customHostname, defaultHostname, PlatformSettings, reservedNamesOf } from "./PlatformSettings.js"
export {
  defaultHostnameOf,
  Deploy,
  DeployStatus,
  hasSucceededDeploy,
  Project,
  ProjectId,
  recordDeploy
} from "./Project.js"
export { ProjectIdTaken, ProjectNotFound } from "./ProjectErrors.js"
export { listProjectEvents, purgeExpiredEvents } from "./ProjectEvents.js"
export { type ProjectPage, type ProjectQuery, ProjectRepository } from "./ProjectRepository.js"
export { changePlan, createProject, findOwnedProject, listProjects, recordProjectDeploy } from "./Projects.js"
export { removeDomain } from "./RemoveDomain.js"
export { reverifyDomain } from "./ReverifyDomain.js"
export {
  announcingCertificates,
  announcingCustomDomains,
  announcingDecidedWrites,
  announcingDomainConfigs,
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
export { type DnsObservation, verdictFromDns, type VerificationVerdict } from "./VerificationVerdict.js"
export { isAnsweredBy, isCoolingDown, VerifyCooldown, verifyCooldownDefault } from "./VerifyCooldown.js"
export { verifyNow } from "./VerifyDomain.js"
export {
  CreatedWebhookResource,
  createdWebhookResource,
  DeliveryAttempt,
  DeliveryAttemptStatus,
  DeliveryFailureReason,
  enabledWebhook,
  httpFailureReason,
  newWebhook,
  rotatedWebhook,
  RotatedWebhookSecretResource,
  rotatedWebhookSecretResource,
  signingSecretsOf,
  Webhook,
  WebhookDelivery,
  type WebhookDeliveryKey,
  WebhookDeliveryStatus,
  WebhookEvents,
  WebhookId,
  webhookIdBytes,
  webhookIdFrom,
  WebhookResource,
  webhookResource,
  WebhookSecret,
  webhookSecretBytes,
  webhookSecretFrom,
  webhookSecretOverlap,
  WebhookStatus
} from "./Webhook.js"
export {
  claimDueDeliveries,
  deliverClaimed,
  deliverDueWebhooks,
  deliverWebhook,
  type DeliveryOptions,
  type DeliveryPassOptions,
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
export { WebhookNotFound } from "./WebhookErrors.js"
export { type NewWebhook, WebhookRepository } from "./WebhookRepository.js"
export {
  defaultWebhookRetryBase,
  longestWebhookRetryInterval,
  nextWebhookAttemptAt,
  webhookRetryDelay,
  type WebhookRetryInput,
  webhookRetryJitter,
  webhookRetryWindow
} from "./WebhookRetry.js"
export { SendOutcome, type WebhookRequest, WebhookSender } from "./WebhookSender.js"
export {
  type AddressClass,
  classifyAddress,
  isRefusedAddress,
  longestWebhookUrl,
  validateWebhookUrl,
  type WebhookUrlOptions
} from "./WebhookUrlRule.js"
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
export { DnsName }
