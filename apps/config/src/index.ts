/**
 * @petstore/app-config: the configuration both processes read alike, the API and the worker, decoded
 * from their environment. Only the apps read configuration; the packages they compose take plain
 * options.
 */
export * from "./AdapterConfig.js"
export * from "./CertificateConfig.js"
export * from "./LimitsConfig.js"
export * from "./PlatformConfig.js"
export * from "./WebhookConfig.js"
