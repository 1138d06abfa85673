/**
 * The API process's whole configuration, decoded once at start-up, before anything is opened: a bad
 * value stops the process, naming its variable, before storage is touched. And what its key CLI reads.
 */
import { OperatorApiKeyToken } from "@petstore/kernel"
import { Config, Option, Redacted } from "effect"
import { AdapterConfig, OtlpEndpointConfig, SecretKeyConfig } from "./AdapterConfig.js"
import { CertificateDelayConfig } from "./CertificateConfig.js"
import { CustomDomainCheckConfig, type CustomDomainCheckSettings } from "./CustomDomainCheckConfig.js"
import { EdgeConfig } from "./EdgeConfig.js"
import { LimitsConfig } from "./LimitsConfig.js"
import { LogLevelConfig } from "./LogLevelConfig.js"
import { MetricsConfig } from "./MetricsConfig.js"
import { PlatformConfig } from "./PlatformConfig.js"
import { RateLimitConfig, RedisUrlConfig } from "./RateLimitConfig.js"
import { ServerConfig } from "./ServerConfig.js"
import { type StorageChoice, StorageConfig } from "./StorageConfig.js"
import { VerifyCooldownConfig } from "./VerifyConfig.js"
import { WebhookConfig } from "./WebhookConfig.js"

/** The operator's key, never shown: refused at start when short or not a bearer token. */
export const BootstrapKeyConfig = Config.schema(OperatorApiKeyToken, "PETSTORE_BOOTSTRAP_KEY").pipe(
  Config.map(Redacted.make),
  Config.option
)

/** The API's settings, each as its variables' module reads it. */
export interface ApiSettings {
  readonly logLevel: Config.Success<typeof LogLevelConfig>
  readonly otlpEndpoint: Config.Success<typeof OtlpEndpointConfig>
  readonly server: Config.Success<typeof ServerConfig>
  readonly storage: StorageChoice
  readonly edge: Config.Success<typeof EdgeConfig>
  readonly metrics: Config.Success<typeof MetricsConfig>
  readonly bootstrapKey: Config.Success<typeof BootstrapKeyConfig>
  readonly adapters: Config.Success<typeof AdapterConfig>
  readonly platform: Config.Success<typeof PlatformConfig>
  readonly certificateDelay: Config.Success<typeof CertificateDelayConfig>
  readonly verifyCooldown: Config.Success<typeof VerifyCooldownConfig>
  readonly webhooks: Config.Success<typeof WebhookConfig>
  readonly limits: Config.Success<typeof LimitsConfig>
  readonly rateLimits: Config.Success<typeof RateLimitConfig>
  /** Where the rate-limit counters live: this Redis, or (none) the process's memory. */
  readonly redisUrl: Config.Success<typeof RedisUrlConfig>
  /**
   * The knobs of the worker's loops, which the API runs itself on storage no separate worker can open
   * (embedded, memory): read then, and only then (some exactly when storage is not PostgreSQL).
   */
  readonly inProcessChecks: Option.Option<CustomDomainCheckSettings>
}

const ApiConfigOfEveryStorage: Config.Config<Omit<ApiSettings, "inProcessChecks">> = Config.all({
  logLevel: LogLevelConfig,
  otlpEndpoint: OtlpEndpointConfig,
  server: ServerConfig,
  storage: StorageConfig,
  edge: EdgeConfig,
  metrics: MetricsConfig,
  bootstrapKey: BootstrapKeyConfig,
  adapters: AdapterConfig,
  platform: PlatformConfig,
  certificateDelay: CertificateDelayConfig,
  verifyCooldown: VerifyCooldownConfig,
  webhooks: WebhookConfig,
  limits: LimitsConfig,
  rateLimits: RateLimitConfig,
  redisUrl: RedisUrlConfig
})

/**
 * Everything the API process reads. `PETSTORE_WORKER_*` are read only when the API runs the worker's
 * loops itself, as before: an API on PostgreSQL leaves them to the worker.
 */
export const ApiConfig: Config.Config<ApiSettings> = ApiConfigOfEveryStorage.pipe(
  Config.flatMap(
    (settings): Config.Config<ApiSettings> =>
      settings.storage._tag === "Postgres"
        ? Config.succeed({ ...settings, inProcessChecks: Option.none() })
        : Config.map(CustomDomainCheckConfig, (checks) => ({
            ...settings,
            inProcessChecks: Option.some(checks)
          }))
  )
)

/**
 * What the key CLI reads when one of its commands runs (a usage error or `--help` reads nothing): the
 * storage the server uses, and the secret its migrations need.
 */
export const KeyStorageConfig = Config.all({ storage: StorageConfig, secretKey: SecretKeyConfig })
