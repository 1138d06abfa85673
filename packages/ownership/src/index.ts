/**
 * @petstore/ownership: who owns a hostname: ownership tokens and TXT proofs, the rules that say when the
 * record is required, rivals and releases, claims of a whole apex, decided (conditional) writes, and the
 * check of a domain with the ownership rules. Pure: no I/O and no adapter; adapters implement the ports.
 */
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
export { claimLimitRefusal } from "./ClaimLimit.js"
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
export {
  type Decision,
  decideAndStore,
  decisionAttempts,
  noWrites,
  writtenClaim,
  writtenDomain
} from "./DecidedWrites.js"
export { type DecidedWrites, DecidedWritesStore } from "./DecidedWritesStore.js"
export { type CheckObservation, checkDomain, checkWrites, type DomainCheck } from "./DomainCheck.js"
export { ClaimNotFound, DomainClaimed } from "./Errors.js"
export {
  type HostnameRelease,
  needsRecord,
  type OwnershipFacts,
  type OwnershipProof,
  type OwnershipRequirement,
  ownershipLostProblem,
  ownershipProof,
  ownershipRequiredProblem,
  ownershipRequirement,
  recentHoldWindow,
  wildcardProbeName,
  wildcardProblem
} from "./Ownership.js"
export { type HostnameOwnership, ownershipFactsOf, ownershipOf } from "./OwnershipFacts.js"
export { OwnershipRepository } from "./OwnershipRepository.js"
export { type OwnershipObservation, type OwnershipOutcome, verdictWithOwnership } from "./OwnershipVerdict.js"
