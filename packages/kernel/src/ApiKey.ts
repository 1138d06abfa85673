/**
 * API keys: bearer tokens owned by an account, stored only as a SHA-256 hash.
 *
 * Keys are 256 random bits, so a fast hash is enough (no password stretching is needed); lookups go
 * by hash and the final comparison is constant-time. Randomness and hashing use the Web Crypto API,
 * which every JavaScript runtime has, so this module imports nothing platform-specific.
 */

import { Brand, Effect, Schema } from "effect"
import { Base64Url, Hex } from "effect/encoding"
import { AccountName } from "./Account.js"
import { Sha256, type Sha256Hex } from "./Sha256.js"

/** Every generated key starts with this, so a leaked key is recognisable by secret scanners. */
export const apiKeyPrefix = "pk_live_"

export const ApiKeyId = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^key_[0-9a-f]{16}$/u)),
  Schema.brand("ApiKeyId"),
  Schema.annotate({ identifier: "ApiKeyId" })
)
export type ApiKeyId = typeof ApiKeyId.Type

/** A SHA-256 digest, lower-case hex. */
export const ApiKeyHash = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^[0-9a-f]{64}$/u)),
  Schema.brand("ApiKeyHash"),
  Schema.annotate({ identifier: "ApiKeyHash" })
)
export type ApiKeyHash = typeof ApiKeyHash.Type

/**
 * What a client may present as a bearer token: RFC 6750 `b64token` characters, at most 512 of them.
 * Generated keys are stricter, but an operator-chosen `PETSTORE_BOOTSTRAP_KEY` only has to fit this.
 */
export const bearerTokenPattern = /^[A-Za-z0-9\-._~+/]+=*$/
export const bearerTokenMaxLength = 512
export const isWellFormedBearerToken = (token: string): boolean =>
  token.length > 0 && token.length <= bearerTokenMaxLength && bearerTokenPattern.test(token)

/** The shortest key an operator may choose: a short key can be guessed, whatever the rate limits. */
export const operatorApiKeyMinLength = 24

/**
 * A key chosen by the operator (`PETSTORE_BOOTSTRAP_KEY`): a bearer token of 24 to 512 characters.
 * The messages never repeat the value.
 */
export const OperatorApiKeyToken = Schema.String.check(
  Schema.isMinLength(operatorApiKeyMinLength, {
    message: `must be at least ${operatorApiKeyMinLength} characters`
  }),
  Schema.isMaxLength(bearerTokenMaxLength, { message: `must be at most ${bearerTokenMaxLength} characters` }),
  Schema.isPattern(bearerTokenPattern, {
    message: "must be a bearer token: letters, digits and - . _ ~ + /, then optional = padding"
  })
)

// A class's struct carries its identifier too: JSON Schema names a class by its encoded side.
export class ApiKeyRecord extends Schema.Class<ApiKeyRecord>("ApiKeyRecord")(
  Schema.Struct({
    id: ApiKeyId,
    account: AccountName,
    hash: ApiKeyHash,
    createdAt: Schema.Date,
    revokedAt: Schema.Option(Schema.Date)
  }).annotate({ identifier: "ApiKeyRecord" })
) {}

const randomBytes = (size: number): Uint8Array => {
  const bytes = new Uint8Array(size)
  globalThis.crypto.getRandomValues(bytes)
  return bytes
}

export const generateApiKeyToken: Effect.Effect<string> = Effect.sync(
  () => apiKeyPrefix + Base64Url.encode(randomBytes(32))
)

export const generateApiKeyId: Effect.Effect<ApiKeyId> = Effect.sync(() =>
  ApiKeyId.make(`key_${Hex.encode(randomBytes(8))}`)
)

/**
 * A digest of `Sha256` is lower-case hex by that service's contract: a hash computed here is branded
 * as it is. Checking its 64 characters against the schema again would cost more than the digest,
 * and every authenticated request hashes its key.
 */
const ownDigest = Brand.nominal<ApiKeyHash>()

/** `hashApiKeyToken` with the digest at hand (a server takes it once, not from the context per request). */
export const hashApiKeyTokenWith =
  (sha256: Sha256Hex) =>
  (token: string): Effect.Effect<ApiKeyHash> =>
    Effect.map(sha256(token), ownDigest)

export const hashApiKeyToken = (token: string): Effect.Effect<ApiKeyHash> =>
  Effect.flatMap(Sha256, (sha256) => hashApiKeyTokenWith(sha256)(token))

export const constantTimeEquals = (a: string, b: string): boolean => {
  const length = Math.max(a.length, b.length)
  let difference = a.length ^ b.length
  for (let i = 0; i < length; i++) {
    difference |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0)
  }
  return difference === 0
}
