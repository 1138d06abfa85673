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

/**
 * Makes the service accept a key chosen by its operator (`PETSTORE_BOOTSTRAP_KEY`). Idempotent: a key
 * already stored is left as it is, revoked or not.
 */
export const registerOperatorApiKey = (
  account: AccountName,
  token: string
): Effect.Effect<void, StorageError, ApiKeyRepository> => Effect.asVoid(register(account, token))

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
