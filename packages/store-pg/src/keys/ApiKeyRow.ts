/**
 * An `api_keys` row as the repository selects it (`id, account, hash, created_at as "createdAt",
 * revoked_at as "revokedAt"`), read into an `ApiKeyRecord` by hand: each column is checked for what
 * the record's schema checks (the identifiers by the domain's own schemas, which are cheap on their
 * own; dates valid `Date`s, the revocation `null` or one), then the record is built without checking
 * again. A key is looked up on every request, and decoding the row through Schema cost about three
 * times as much as this.
 */
import { AccountName, ApiKeyHash, ApiKeyId, ApiKeyRecord } from "@petstore/kernel"
import { Option, Result, Schema } from "effect"
import type { SqlConnection } from "effect/sql"
import { isValidDate } from "../internal/ColumnChecks.js"
import { CorruptRow } from "../internal/CorruptRow.js"

const isApiKeyId = Schema.is(ApiKeyId)
const isAccountName = Schema.is(AccountName)
const isApiKeyHash = Schema.is(ApiKeyHash)

const corrupt = (column: string, rule: string) =>
  Result.fail(new CorruptRow({ table: "api_keys", column, rule }))

export const apiKeyFromRow = (row: SqlConnection.Row): Result.Result<ApiKeyRecord, CorruptRow> => {
  const { account, createdAt, hash, id, revokedAt } = row
  if (!isApiKeyId(id)) return corrupt("id", "must be key_ and 16 lower-case hex digits")
  if (!isAccountName(account)) return corrupt("account", "must be an account name")
  if (!isApiKeyHash(hash)) return corrupt("hash", "must be 64 lower-case hex digits")
  if (!isValidDate(createdAt)) return corrupt("created_at", "must be a valid date")
  if (revokedAt !== null && !isValidDate(revokedAt))
    return corrupt("revoked_at", "must be null or a valid date")
  return Result.succeed(
    new ApiKeyRecord(
      {
        id,
        account,
        hash,
        createdAt,
        revokedAt: revokedAt === null ? Option.none() : Option.some(revokedAt)
      },
      { disableChecks: true }
    )
  )
}
