/**
 * The loopback protocol through which the key CLI reaches the API keys of a running server that owns
 * its storage exclusively (the embedded database allows one process). It carries what the
 * `ApiKeyRepository` port carries, hashes only: a key itself never crosses it.
 */
import { AccountName, ApiKeyHash, ApiKeyId, ApiKeyRecord } from "@petstore/kernel"
import { Option, Schema, SchemaTransformation } from "effect"

/** The file, inside the data directory, that tells where the running server listens and its secret. */
export const adminEndpointFileName = "petstore-admin.json"

export const AdminEndpoint = Schema.fromJsonString(
  Schema.Struct({
    port: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 65535 })),
    token: Schema.String.check(Schema.isPattern(/^[A-Za-z0-9_-]{43}$/))
  })
)
export type AdminEndpoint = typeof AdminEndpoint.Type

const ApiKeyRecordWire = Schema.Struct({
  id: ApiKeyId,
  account: AccountName,
  hash: ApiKeyHash,
  createdAt: Schema.DateFromString,
  revokedAt: Schema.NullOr(Schema.DateFromString)
})

/** An `ApiKeyRecord` as JSON: dates as ISO text, no revocation as `null`. */
export const ApiKeyRecordJson = ApiKeyRecordWire.pipe(
  Schema.decodeTo(
    Schema.toType(ApiKeyRecord),
    SchemaTransformation.transform({
      decode: (wire) => new ApiKeyRecord({ ...wire, revokedAt: Option.fromNullishOr(wire.revokedAt) }),
      encode: (record) => ({
        id: record.id,
        account: record.account,
        hash: record.hash,
        createdAt: record.createdAt,
        revokedAt: Option.getOrNull(record.revokedAt)
      })
    })
  )
)

export const InsertRequest = Schema.fromJsonString(ApiKeyRecordJson)
export const ListResponse = Schema.fromJsonString(Schema.Array(ApiKeyRecordJson))
export const RevokeRequest = Schema.fromJsonString(Schema.Struct({ id: ApiKeyId, at: Schema.DateFromString }))
export const RevokeResponse = Schema.fromJsonString(Schema.Struct({ revoked: Schema.Boolean }))
