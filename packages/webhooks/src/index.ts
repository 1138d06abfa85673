/**
 * @petstore/webhooks: webhooks of a project: the record and its signing secrets, the URL rule, the retry
 * schedule, disabling after failures, the sender port, the delivery round and the webhook and delivery
 * ports. Pure: no I/O and no adapter; adapters implement the ports.
 */
export { WebhookNotFound } from "./Errors.js"
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
