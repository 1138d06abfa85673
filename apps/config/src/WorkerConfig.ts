/**
 * The worker process's whole configuration, decoded once at start-up, before anything is opened: a bad
 * value stops the worker, naming its variable, before it connects to PostgreSQL.
 */
import { Config } from "effect"
import { AdapterConfig, OtlpEndpointConfig } from "./AdapterConfig.js"
import { CertificateDelayConfig } from "./CertificateConfig.js"
import { CustomDomainCheckConfig } from "./CustomDomainCheckConfig.js"
import { LogLevelConfig } from "./LogLevelConfig.js"
import { WorkerMetricsConfig } from "./MetricsConfig.js"
import { PlatformConfig } from "./PlatformConfig.js"
import { WorkerStorageConfig } from "./StorageConfig.js"
import { WebhookConfig } from "./WebhookConfig.js"

/** The worker's settings, each as its variables' module reads it. */
export interface WorkerSettings {
  readonly logLevel: Config.Success<typeof LogLevelConfig>
  readonly otlpEndpoint: Config.Success<typeof OtlpEndpointConfig>
  readonly storage: Config.Success<typeof WorkerStorageConfig>
  readonly adapters: Config.Success<typeof AdapterConfig>
  readonly platform: Config.Success<typeof PlatformConfig>
  readonly certificateDelay: Config.Success<typeof CertificateDelayConfig>
  readonly webhooks: Config.Success<typeof WebhookConfig>
  readonly checks: Config.Success<typeof CustomDomainCheckConfig>
  readonly metrics: Config.Success<typeof WorkerMetricsConfig>
}

export const WorkerConfig: Config.Config<WorkerSettings> = Config.all({
  logLevel: LogLevelConfig,
  otlpEndpoint: OtlpEndpointConfig,
  storage: WorkerStorageConfig,
  adapters: AdapterConfig,
  platform: PlatformConfig,
  certificateDelay: CertificateDelayConfig,
  webhooks: WebhookConfig,
  checks: CustomDomainCheckConfig,
  metrics: WorkerMetricsConfig
})
