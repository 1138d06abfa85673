/**
 * Where a running server serves the key administration (`ApiKeyAdminApi`) and the secret it accepts:
 * a file in its data directory, readable by its owner only, written once the listener is open and
 * removed when it closes. Whoever can read it may administer the keys; nobody else can.
 */
import { Schema } from "effect"

/** The file, inside the data directory, that tells where the running server listens and its secret. */
export const adminEndpointFileName = "petstore-admin.json"

/** The secret: 32 random bytes in base64url. */
export const AdminToken = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9_-]{43}$/))

export const AdminEndpoint = Schema.Struct({
  port: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 65535 })),
  token: AdminToken
})
export type AdminEndpoint = typeof AdminEndpoint.Type

/** The file's text. */
export const AdminEndpointJson = Schema.fromJsonString(AdminEndpoint)
