/**
 * @petstore/kernel: what the animal catalogue and custom domains share: accounts, API keys and the
 * rules that issue, revoke and check them, the rate-limit policy, the shared typed errors and the
 * storage health port. Pure: no I/O and no adapter; adapters implement the ports.
 */
export { AccountName, defaultAccountName } from "./Account.js"
export {
  ApiKeyHash,
  ApiKeyId,
  ApiKeyRecord,
  apiKeyPrefix,
  bearerTokenMaxLength,
  bearerTokenPattern,
  constantTimeEquals,
  generateApiKeyId,
  generateApiKeyToken,
  hashApiKeyToken,
  hashApiKeyTokenWith,
  isWellFormedBearerToken,
  OperatorApiKeyToken,
  operatorApiKeyMinLength
} from "./ApiKey.js"
export {
  applyOperatorApiKey,
  type IssuedApiKey,
  issueApiKey,
  listApiKeys,
  type OperatorApiKeyOutcome,
  revokeApiKey
} from "./ApiKeyManagement.js"
export { ApiKeyRepository } from "./ApiKeyRepository.js"
export {
  type Authenticate,
  authenticate,
  authenticateWith,
  bearerTokenFromHeader,
  type Caller
} from "./Authentication.js"
export { LimitReached, StorageError, Unauthenticated } from "./Errors.js"
export type { DueCheckOptions, DueCheckRound, Lease } from "./Lease.js"
export { defaultLimits, Limits, type LimitValues, limitNames, limitReached } from "./Limits.js"
export {
  addressBucket,
  keyBucket,
  type RateLimitBucket,
  type RateLimitOptions,
  type RateLimitPolicies,
  type RateLimitPolicy,
  RateLimits,
  rateLimitPolicies
} from "./RateLimitPolicy.js"
export { Sha256, type Sha256Hex, webCryptoSha256 } from "./Sha256.js"
export { StorageHealth } from "./StorageHealth.js"
export { firstVersion, StoredVersion } from "./StoredVersion.js"
export { Timestamp } from "./Timestamp.js"
