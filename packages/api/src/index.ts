/**
 * @petstore/api: the HTTP contract (`HttpApi`) and its typed client, and the local key
 * administration's own contract (`ApiKeyAdmin`, outside the public document). No server code: another
 * team can depend on this package to call the service.
 */
export * from "./ApiErrors.js"
export * as ApiKeyAdmin from "./ApiKeyAdminApi.js"
export * as ApiKeyAdminEndpoint from "./ApiKeyAdminEndpoint.js"
export * from "./Authentication.js"
export * from "./BodyOperation.js"
export * from "./ClaimsGroup.js"
export * from "./Deprecation.js"
export * from "./ErrorBody.js"
export * from "./EventsGroup.js"
export * from "./HealthGroup.js"
export * from "./JsonBody.js"
export * from "./OpenApiDocument.js"
export * from "./Paging.js"
export * from "./PetsGroup.js"
export * from "./PetstoreApi.js"
export * from "./PetstoreClient.js"
export * from "./ProjectsGroup.js"
export * from "./QueryParameters.js"
export * from "./WebhooksGroup.js"
