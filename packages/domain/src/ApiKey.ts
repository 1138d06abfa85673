/**
 * API keys: bearer tokens owned by an account, stored only as a SHA-256 hash.
 *
 * Keys are 256 random bits, so a fast hash is enough (no password stretching is needed); lookups go
 * by hash and the final comparison is constant-time. Randomness and hashing use the Web Crypto API,
 * which every JavaScript runtime has, so this module imports nothing platform-specific.
 */

import { Effect, Encoding, Schema } from "effect"
import { AccountName } from "./Account.js"
import { Sha256 } from "./Sha256.js"

/** Every generated key starts with this, so a leaked key is recognisable by secret scanners. */
export const apiKeyPrefix = "pk_live_"

export const ApiKeyId = Schema.String.pipe(
  Schema.pattern(/^key_[0-9a-f]{16}$/),
  Schema.brand("ApiKeyId")
).annotations({ identifier: "ApiKeyId" })
export type ApiKeyId = typeof ApiKeyId.Type

/** A SHA-256 digest, lower-case hex. */
export const ApiKeyHash = Schema.String.pipe(
  Schema.pattern(/^[0-9a-f]{64}$/),
  Schema.brand("ApiKeyHash")
).annotations({ identifier: "ApiKeyHash" })
export type ApiKeyHash = typeof ApiKeyHash.Type

/**
 * What a client may present as a bearer token: RFC 6750 `b64token` characters, at most 512 of them.
 * Generated keys are stricter, but an operator-chosen `PETSTORE_BOOTSTRAP_KEY` only has to fit this.
 */
export const bearerTokenPattern = /^[A-Za-z0-9\-._~+/]+=*$/
export const bearerTokenMaxLength = 512
export const isWellFormedBearerToken = (token: string): boolean =>
  token.length > 0 && token.length <= bearerTokenMaxLength && bearerTokenPattern.test(token)

export class ApiKeyRecord extends Schema.Class<ApiKeyRecord>("ApiKeyRecord")({
  id: ApiKeyId,
  account: AccountName,
  hash: ApiKeyHash,
  createdAt: Schema.DateFromSelf,
  revokedAt: Schema.OptionFromSelf(Schema.DateFromSelf)
}) {}

const randomBytes = (size: number): Uint8Array => {
  const bytes = new Uint8Array(size)
  globalThis.crypto.getRandomValues(bytes)
  return bytes
}

export const generateApiKeyToken: Effect.Effect<string> = Effect.sync(
  () => apiKeyPrefix + Encoding.encodeBase64Url(randomBytes(32))
)

export const generateApiKeyId: Effect.Effect<ApiKeyId> = Effect.sync(() =>
  ApiKeyId.make(`key_${Encoding.encodeHex(randomBytes(8))}`)
)

export const hashApiKeyToken = (token: string): Effect.Effect<ApiKeyHash> =>
  Effect.flatMap(Sha256, (sha256) => Effect.map(sha256(token), ApiKeyHash.make))

export const constantTimeEquals = (a: string, b: string): boolean => {
  const length = Math.max(a.length, b.length)
  let difference = a.length ^ b.length
  for (let i = 0; i < length; i++) {
    difference |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0)
  }
  return difference === 0
}
