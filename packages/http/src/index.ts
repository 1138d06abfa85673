/**
 * @petstore/http: the server side of `PetstoreApi`: handlers, middleware, error mapping, and the
 * Node HTTP server that serves them.
 */
export * from "./AllowedMethods.js"
export * as ApiReference from "./ApiReference.js"
export * from "./AuthenticationLive.js"
export * from "./ClaimsHandlers.js"
export * from "./DomainErrors.js"
export * from "./EdgeHandlers.js"
export * from "./ErrorResponse.js"
export * from "./GetPetDeprecationLive.js"
export * from "./HealthHandlers.js"
export * as HttpMetrics from "./HttpMetrics.js"
export * from "./JsonBodyLive.js"
export * as LocalApiKeyAdmin from "./LocalApiKeyAdmin.js"
export * from "./PetsHandlers.js"
export * from "./PetstoreHttpApi.js"
export * from "./PetstoreHttpServer.js"
export * from "./ProjectsHandlers.js"
export * from "./PublicPaths.js"
export * from "./RequestLifecycle.js"
export * as RequestRateLimiter from "./RequestRateLimiter.js"
export * from "./StorageUnavailable.js"
