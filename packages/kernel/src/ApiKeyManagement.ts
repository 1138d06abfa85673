/**
 * Issuing, listing and revoking API keys. A new key is returned once, at creation; only its hash is
 * stored, so it cannot be shown again.
 */
import { Clock, Effect, Option } from "effect"
import type { AccountName } from "./Account.js"
import {
  type ApiKeyId,
  ApiKeyRecord,
  generateApiKeyId,
  generateApiKeyToken,
  hashApiKeyToken
} from "./ApiKey.js"
import { ApiKeyRepository } from "./ApiKeyRepository.js"
import type { StorageError } from "./Errors.js"

export interface IssuedApiKey {
  readonly record: ApiKeyRecord
  /** The key itself: shown once, never stored. */
  readonly token: string
}

const register = (account: AccountName, token: string) =>
  Effect.gen(function* () {
    const keys = yield* ApiKeyRepository
    const record = new ApiKeyRecord({
      id: yield* generateApiKeyId,
      account,
      hash: yield* hashApiKeyToken(token),
      createdAt: new Date(yield* Clock.currentTimeMillis),
      revokedAt: Option.none()
    })
    yield* keys.insert(record)
    return record
  })

export const issueApiKey = (
  account: AccountName
): Effect.Effect<IssuedApiKey, StorageError, ApiKeyRepository> =>
  Effect.gen(function* () {
    const token = yield* generateApiKeyToken
    return { record: yield* register(account, token), token }
  })

/** What `applyOperatorApiKey` did. */
export interface OperatorApiKeyOutcome {
  /** Whether the operator's key is accepted: false when none is set, or it was revoked earlier. */
  readonly accepted: boolean
  /** The other keys of the operator's account it revoked. */
  readonly revoked: ReadonlyArray<ApiKeyRecord>
}

/**
 * Makes the key chosen by the operator (`PETSTORE_BOOTSTRAP_KEY`) the only active key of the
 * operator's account, which is reserved for it: with a key, it is registered and any other active key
 * of the account (one the variable named before) is revoked; without one, every active key of the
 * account is revoked, so removing the variable takes its key away. A key revoked earlier stays
 * revoked when the variable names it again: it may have been revoked because it leaked.
 */
export const applyOperatorApiKey = (
  account: AccountName,
  token: Option.Option<string>
): Effect.Effect<OperatorApiKeyOutcome, StorageError, ApiKeyRepository> =>
  Effect.gen(function* () {
    const keys = yield* ApiKeyRepository
    const current = Option.isSome(token)
      ? Option.some((yield* register(account, token.value)).hash)
      : Option.none()
    const all = yield* keys.list
    const active = all.filter((key) => key.account === account && Option.isNone(key.revokedAt))
    const revoked = active.filter((key) => !Option.contains(current, key.hash))
    const at = new Date(yield* Clock.currentTimeMillis)
    yield* Effect.forEach(revoked, (key) => keys.revoke(key.id, at), { discard: true })
    return { accepted: active.some((key) => Option.contains(current, key.hash)), revoked }
  })

export const listApiKeys: Effect.Effect<
  ReadonlyArray<ApiKeyRecord>,
  StorageError,
  ApiKeyRepository
> = Effect.flatMap(ApiKeyRepository, (keys) => keys.list)

export const revokeApiKey = (id: ApiKeyId): Effect.Effect<boolean, StorageError, ApiKeyRepository> =>
  Effect.gen(function* () {
    const keys = yield* ApiKeyRepository
    return yield* keys.revoke(id, new Date(yield* Clock.currentTimeMillis))
  })
