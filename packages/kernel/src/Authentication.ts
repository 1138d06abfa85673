/**
 * Who is calling: turns the bearer token of a request into the account that owns it.
 */
import { Effect, Option } from "effect"
import type { AccountName } from "./Account.js"
import {
  type ApiKeyHash,
  type ApiKeyId,
  constantTimeEquals,
  hashApiKeyTokenWith,
  isWellFormedBearerToken
} from "./ApiKey.js"
import { ApiKeyRepository } from "./ApiKeyRepository.js"
import { type StorageError, Unauthenticated } from "./Errors.js"
import { Sha256, type Sha256Hex } from "./Sha256.js"

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

/**
 * The two refusals, made once. A refusal is the answer to every request without a valid key, and
 * making an error object captures a stack trace, which costs more than the rest of the check; no
 * refusal carries anything of its request.
 */
const noTokenPresented = new Unauthenticated({ tokenPresented: false })
const tokenRefused = new Unauthenticated({ tokenPresented: true })

/** Checks one `Authorization` header: the caller, or why not. */
export type Authenticate = (
  authorizationHeader: string | undefined
) => Effect.Effect<Caller, Unauthenticated | StorageError>

/**
 * `authenticate` with its services at hand: a server makes it once and runs it on every request,
 * without reading the key repository and the digest from the context each time.
 */
export const authenticateWith = (keys: ApiKeyRepository["Service"], sha256: Sha256Hex): Authenticate => {
  const hash = hashApiKeyTokenWith(sha256)
  const callerOf = (presented: ApiKeyHash) =>
    Effect.flatMap(keys.findByHash(presented), (found) =>
      Option.isNone(found) ||
      !constantTimeEquals(found.value.hash, presented) ||
      Option.isSome(found.value.revokedAt)
        ? Effect.fail(tokenRefused)
        : Effect.succeed<Caller>({ account: found.value.account, keyId: found.value.id })
    )
  return (authorizationHeader) => {
    const token = bearerTokenFromHeader(authorizationHeader)
    if (Option.isSome(token)) return Effect.flatMap(hash(token.value), callerOf)
    // RFC 6750 §3.1: only a bearer credential that was sent and refused earns `invalid_token`.
    const tokenPresented = authorizationHeader !== undefined && /^Bearer +\S/i.test(authorizationHeader)
    return Effect.fail(tokenPresented ? tokenRefused : noTokenPresented)
  }
}

export const authenticate = (
  authorizationHeader: string | undefined
): Effect.Effect<Caller, Unauthenticated | StorageError, ApiKeyRepository> =>
  Effect.flatMap(ApiKeyRepository, (keys) =>
    Effect.flatMap(Sha256, (sha256) => authenticateWith(keys, sha256)(authorizationHeader))
  )
