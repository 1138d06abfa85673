/**
 * When a webhook stops getting deliveries (contract section 9): one whose every delivery failed for
 * `PETSTORE_WEBHOOK_DISABLE_AFTER` (72 hours by default) is disabled, with the last failure's reason,
 * so that a receiver gone for good costs the platform nothing more and its owner sees why. The clock
 * starts at the first failed attempt after a delivered one (or after the webhook was created or
 * enabled again) and stops at the next delivered one. Pure: the stores write what it decides, only
 * where the webhook is still as the claim saw it.
 */
import { Duration } from "effect"
import type { DeliveryFailureReason } from "./Webhook.js"

/** `PETSTORE_WEBHOOK_DISABLE_AFTER` when unset. */
export const defaultWebhookDisableAfter = Duration.hours(72)

/** What an attempt changes of its webhook: when its failures began, and whether it is now disabled. */
export interface WebhookHealthChange {
  /** The webhook's `failingSince` as the delivery was claimed: written only where it still is. */
  readonly expectedFailingSince: Date | null
  readonly failingSince: Date | null
  readonly disabled: null | { readonly at: Date; readonly reason: DeliveryFailureReason }
}

/**
 * The webhook's health after an attempt at `at`: a delivered one (`failure` null) ends its failures;
 * a failed one starts them, or disables the webhook once they have lasted `disableAfter`.
 */
export const healthAfterAttempt = (
  failingSince: Date | null,
  failure: DeliveryFailureReason | null,
  at: Date,
  disableAfter: Duration.Input
): WebhookHealthChange => {
  if (failure === null) return { expectedFailingSince: failingSince, failingSince: null, disabled: null }
  const since = failingSince ?? at
  const failedLongEnough =
    at.getTime() - since.getTime() >= Duration.toMillis(Duration.fromInputUnsafe(disableAfter))
  return {
    expectedFailingSince: failingSince,
    failingSince: since,
    disabled: failedLongEnough ? { at, reason: failure } : null
  }
}
