/**
 * Port: where API keys are kept (hashes only, never the keys themselves).
 */
import type { Effect, Option } from "effect"
import { Context } from "effect"
import type { ApiKeyHash, ApiKeyId, ApiKeyRecord } from "./ApiKey.js"
import type { StorageError } from "./Errors.js"

export class ApiKeyRepository extends Context.Service<
  ApiKeyRepository,
  {
    /** Stores a key; a key whose hash is already stored is left as it is (idempotent). */
    readonly insert: (record: ApiKeyRecord) => Effect.Effect<void, StorageError>
    /** The key with this hash, revoked or not. */
    readonly findByHash: (hash: ApiKeyHash) => Effect.Effect<Option.Option<ApiKeyRecord>, StorageError>
    readonly list: Effect.Effect<ReadonlyArray<ApiKeyRecord>, StorageError>
    /** Marks a key revoked; false when there is no such key or it was revoked already. */
    readonly revoke: (id: ApiKeyId, at: Date) => Effect.Effect<boolean, StorageError>
  }
>()("@petstore/kernel/ApiKeyRepository") {}
