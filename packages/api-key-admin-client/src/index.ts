/**
 * @petstore/api-key-admin-client: the `ApiKeyRepository` adapter that reaches a running server's keys
 * through its key administration, and how to find that server from its data directory.
 */
export * as AdminEndpointFile from "./AdminEndpointFile.js"
export * as ApiKeyAdminClient from "./ApiKeyAdminClient.js"
