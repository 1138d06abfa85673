/**
 * The key administration: how the key CLI reaches the API keys of a running server that owns its
 * storage exclusively (the embedded database admits one process). An `HttpApi` of its own, served on
 * a loopback listener of its own and never part of the service's public document. It carries what the
 * `ApiKeyRepository` port carries, hashes only: a key itself never crosses it. Every request presents
 * the running server's secret as a bearer token (see `ApiKeyAdminEndpoint`).
 */
import { AccountName, ApiKeyHash, ApiKeyId, ApiKeyRecord } from "@petstore/kernel"
import { Option, Schema, SchemaTransformation } from "effect"
import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as HttpApiSecurity from "effect/http-api/HttpApiSecurity"

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

/** The key with a hash, or `null` when none has it. */
export const FoundApiKey = Schema.Struct({ key: Schema.NullOr(ApiKeyRecordJson) })

export const RevokeRequest = Schema.Struct({ id: ApiKeyId, at: Schema.DateFromString })

/** Whether a key was revoked: false when there is no such key or it was revoked already. */
export const RevokeResponse = Schema.Struct({ revoked: Schema.Boolean })

/** The secret was missing or not the running server's. */
export class AdminSecretRefused extends Schema.TaggedError<AdminSecretRefused>()(
  "AdminSecretRefused",
  {},
  { httpApiStatus: 401 }
) {
  override get message(): string {
    return "the running server refused the key administration's secret"
  }
}

/** The running server could not read or write its keys; why is in its own log, never in the answer. */
export class KeyStorageFailed extends Schema.TaggedError<KeyStorageFailed>()(
  "KeyStorageFailed",
  {},
  { httpApiStatus: 500 }
) {
  override get message(): string {
    return "the running server could not read or write its keys"
  }
}

/** The running server's secret, presented as `Authorization: Bearer <secret>`. */
export class AdminSecret extends HttpApiMiddleware.Service<AdminSecret>()("@petstore/api/AdminSecret", {
  error: AdminSecretRefused,
  security: { secret: HttpApiSecurity.bearer }
}) {}

export class ApiKeysGroup extends HttpApiGroup.make("apiKeys")
  .add(
    HttpApiEndpoint.get("list", "/api-keys", {
      success: Schema.Array(ApiKeyRecordJson),
      error: KeyStorageFailed
    })
  )
  .add(
    HttpApiEndpoint.get("findByHash", "/api-keys/:hash", {
      params: { hash: ApiKeyHash },
      success: FoundApiKey,
      error: KeyStorageFailed
    })
  )
  .add(
    HttpApiEndpoint.post("insert", "/api-keys", {
      payload: ApiKeyRecordJson,
      success: HttpApiSchema.NoContent,
      error: KeyStorageFailed
    })
  )
  .add(
    HttpApiEndpoint.post("revoke", "/api-keys/revoke", {
      payload: RevokeRequest,
      success: RevokeResponse,
      error: KeyStorageFailed
    })
  )
  .middleware(AdminSecret) {}

export class ApiKeyAdminApi extends HttpApi.make("petstore-key-administration").add(ApiKeysGroup) {}
