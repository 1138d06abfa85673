/**
 * Webhook signing secrets at rest: encrypted with the `PrivateKeyCipher` that keeps certificates'
 * private keys (same configured secret, same scheme), bound to the webhook's id, so that a copy of the
 * database (a backup, its WAL files) gives away no secret and a value copied into another webhook's
 * row does not decrypt there. HMAC signing needs the secret itself, so it cannot be a hash.
 */
import { Effect, Redacted } from "effect"
import type { PrivateKeyCipher } from "../PrivateKeyCipher.js"

const boundTo = (webhookId: string) => `webhook secret ${webhookId}`

/** The encrypted text of `secret`, for the webhook `webhookId`. */
export const seal = (cipher: PrivateKeyCipher["Service"], webhookId: string, secret: string) =>
  cipher.encrypt(Redacted.make(secret), boundTo(webhookId))

/** The secret again; fails unless it was sealed with the same secret for the same webhook. */
export const open = (cipher: PrivateKeyCipher["Service"], webhookId: string, sealed: string) =>
  Effect.map(cipher.decrypt(sealed, boundTo(webhookId)), Redacted.value)

/** Either secret of a row (the previous one may be absent), opened. */
export const openNullable = (
  cipher: PrivateKeyCipher["Service"],
  webhookId: string,
  sealed: string | null
) => (sealed === null ? Effect.succeed(null) : open(cipher, webhookId, sealed))
