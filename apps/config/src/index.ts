/**
 * @petstore/app-config: everything the apps (the API, its key CLI and the worker) read from their
 * environment, decoded at start-up: one configuration per app (`ApiConfig`, `KeyStorageConfig` with
 * `LogLevelConfig`, `WorkerConfig`) made of the settings below. It is the only place that reads the
 * environment; the packages the apps compose take plain options.
 */
export * from "./AdapterConfig.js"
export * from "./ApiConfig.js"
export * from "./CertificateConfig.js"
export * from "./CustomDomainCheckConfig.js"
export * from "./EdgeConfig.js"
export * from "./LimitsConfig.js"
export * from "./LogLevelConfig.js"
export * from "./MetricsConfig.js"
export * from "./PlatformConfig.js"
export * from "./RateLimitConfig.js"
export * from "./ServerConfig.js"
export * from "./StorageConfig.js"
export * from "./VerifyConfig.js"
export * from "./WebhookConfig.js"
export * from "./WorkerConfig.js"
