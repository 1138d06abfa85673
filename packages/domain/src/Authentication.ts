/**
 * Who is calling: turns the bearer token of a request into the account that owns it.
 */
import { Effect, Option } from "effect"
import type { AccountName } from "./Account.js"
import { type ApiKeyId, constantTimeEquals, hashApiKeyToken, isWellFormedBearerToken } from "./ApiKey.js"
import { ApiKeyRepository } from "./ApiKeyRepository.js"
import { type StorageError, Unauthenticated } from "./Errors.js"

export interface Caller {
  readonly account: AccountName
  /** The key the request was made with: what its rate limit counts against. */
  readonly keyId: ApiKeyId
}

/**
 * Splits an `Authorization` header into its bearer token. The scheme name is case-insensitive
 * (RFC 9110 §11.1); anything other than exactly one well-formed token is no credential at all.
 */
export const bearerTokenFromHeader = (header: string | undefined): Option.Option<string> => {
  if (header === undefined) return Option.none()
  const match = /^Bearer +(\S+) *$/i.exec(header)
  const token = match?.[1]
  return token !== undefined && isWellFormedBearerToken(token) ? Option.some(token) : Option.none()
}

export const authenticate = (
  authorizationHeader: string | undefined
): Effect.Effect<Caller, Unauthenticated | StorageError, ApiKeyRepository> =>
  Effect.gen(function* () {
    // RFC 6750 §3.1: only a bearer credential that was sent and refused earns `invalid_token`.
    const tokenPresented = authorizationHeader !== undefined && /^Bearer +\S/i.test(authorizationHeader)
    const token = bearerTokenFromHeader(authorizationHeader)
    if (Option.isNone(token)) return yield* new Unauthenticated({ tokenPresented })
    const hash = yield* hashApiKeyToken(token.value)
    const keys = yield* ApiKeyRepository
    const found = yield* keys.findByHash(hash)
    if (Option.isNone(found) || !constantTimeEquals(found.value.hash, hash)) {
      return yield* new Unauthenticated({ tokenPresented: true })
    }
    if (Option.isSome(found.value.revokedAt)) return yield* new Unauthenticated({ tokenPresented: true })
    return { account: found.value.account, keyId: found.value.id }
  })
