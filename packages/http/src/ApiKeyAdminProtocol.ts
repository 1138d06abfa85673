/**
 * The loopback protocol through which the key CLI reaches the API keys of a running server that owns
 * its storage exclusively (the embedded database allows one process). It carries what the
 * `ApiKeyRepository` port carries, hashes only: a key itself never crosses it.
 */
import { AccountName, ApiKeyHash, ApiKeyId, ApiKeyRecord } from "@petstore/domain"
import { Option, Schema } from "effect"

/** The file, inside the data directory, that tells where the running server listens and its secret. */
export const adminEndpointFileName = "petstore-admin.json"

export const AdminEndpoint = Schema.parseJson(
  Schema.Struct({
    port: Schema.Int.pipe(Schema.between(1, 65535)),
    token: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_-]{43}$/))
  })
)
export type AdminEndpoint = typeof AdminEndpoint.Type

const ApiKeyRecordWire = Schema.Struct({
  id: ApiKeyId,
  account: AccountName,
  hash: ApiKeyHash,
  createdAt: Schema.Date,
  revokedAt: Schema.NullOr(Schema.Date)
})

/** An `ApiKeyRecord` as JSON: dates as ISO text, no revocation as `null`. */
export const ApiKeyRecordJson = Schema.transform(ApiKeyRecordWire, Schema.typeSchema(ApiKeyRecord), {
  strict: true,
  decode: (wire) => new ApiKeyRecord({ ...wire, revokedAt: Option.fromNullable(wire.revokedAt) }),
  encode: (record) => ({ ...record, revokedAt: Option.getOrNull(record.revokedAt) })
})

export const InsertRequest = Schema.parseJson(ApiKeyRecordJson)
export const ListResponse = Schema.parseJson(Schema.Array(ApiKeyRecordJson))
export const RevokeRequest = Schema.parseJson(Schema.Struct({ id: ApiKeyId, at: Schema.Date }))
export const RevokeResponse = Schema.parseJson(Schema.Struct({ revoked: Schema.Boolean }))
