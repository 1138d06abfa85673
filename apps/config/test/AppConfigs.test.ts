/**
 * Each app's whole configuration, as its process reads it at start-up: from an empty environment, the
 * defaults the README documents; with one bad value, a refusal that names the variable (the process
 * prints it and stops before it opens anything); and what each app does not read.
 */
import { describe, expect, it } from "@effect/vitest"
import { type Config, ConfigProvider, Duration, Effect, Option, Redacted, Result } from "effect"
import { ApiConfig, KeyStorageConfig, limitVariables, WorkerConfig } from "../src/index.js"

const fromEnv = (env: Record<string, string>) =>
  Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))

const decode = <A>(config: Config.Config<A>, env: Record<string, string>) =>
  Effect.result(config).pipe(fromEnv(env))

/** The refusal of `env`, as text: the process shows it (prefixed `configuration:`) and stops. */
const refusal = (config: Config.Config<unknown>, env: Record<string, string>) =>
  Effect.map(decode(config, env), (result) =>
    Result.isFailure(result) ? String(result.failure) : "accepted"
  )

const seconds = Duration.seconds

/** The defaults every app shares. */
const sharedDefaults = {
  logLevel: "Info",
  otlpEndpoint: undefined,
  adapters: {
    dns: { servers: undefined, timeout: seconds(2), tries: 2 },
    acme: undefined,
    secretKey: undefined
  },
  platform: {
    platformDomain: "docs.petstore.test",
    cnameTarget: "cname.docs.petstore.test",
    caIdentifier: "letsencrypt.org"
  },
  certificateDelay: Duration.minutes(30),
  webhooks: {
    allowPrivate: false,
    retryBase: seconds(5),
    disableAfter: Duration.hours(72),
    concurrency: 256
  },
  metrics: Option.none()
}

const checkDefaults = {
  concurrency: 16,
  batchSize: 100,
  pollInterval: seconds(1),
  lease: seconds(60),
  retryBase: seconds(5),
  disableAfter: Duration.hours(72),
  deliveriesInFlight: 256
}

/** A bad value of every variable both apps read, and what the refusal says besides the variable's name. */
const sharedBadValues: ReadonlyArray<readonly [string, string, string]> = [
  ["LOG_LEVEL", "loud", "LOG_LEVEL"],
  ["PETSTORE_DNS_SERVERS", "localhost", "is not an IP address"],
  ["PETSTORE_DNS_TIMEOUT", "soon", "PETSTORE_DNS_TIMEOUT"],
  ["PETSTORE_DNS_TRIES", "11", "must be an integer from 1 to 10"],
  ["PETSTORE_ACME_DIRECTORY_URL", "not a url", "PETSTORE_ACME_DIRECTORY_URL"],
  ["PETSTORE_CERTIFICATE_DELAY_AFTER", "25 hours", "must be from 1 second to 1 day"],
  ["PETSTORE_WEBHOOK_ALLOW_PRIVATE", "yes", "must be true or false"],
  ["PETSTORE_WEBHOOK_RETRY_BASE", "50 millis", "must be from 100 millis to 1 hour"],
  ["PETSTORE_WEBHOOK_DISABLE_AFTER", "366 days", "PETSTORE_WEBHOOK_DISABLE_AFTER"],
  ["PETSTORE_WEBHOOK_CONCURRENCY", "0", "must be an integer from 1 to 10000"],
  ["PETSTORE_WORKER_CONCURRENCY", "1001", "must be an integer from 1 to 1000"],
  ["PETSTORE_WORKER_BATCH_SIZE", "0", "must be an integer from 1 to 10000"],
  ["PETSTORE_WORKER_POLL_INTERVAL", "soon", "PETSTORE_WORKER_POLL_INTERVAL"],
  ["PETSTORE_WORKER_LEASE", "soon", "PETSTORE_WORKER_LEASE"],
  ["PETSTORE_METRICS_PORT", "65536", "must be a port from 0 to 65535"]
]

/** A bad value of every variable the API alone reads. */
const apiBadValues: ReadonlyArray<readonly [string, string, string]> = [
  ["PETSTORE_STORAGE", "sqlite", "PETSTORE_STORAGE"],
  ["PORT", "notaport", "PORT"],
  ["PORT", "70000", "must be a port from 0 to 65535"],
  ["PETSTORE_REQUEST_TIMEOUT", "2 minutes", "at most 30s"],
  ["PETSTORE_SHUTDOWN_GRACE", "soon", "PETSTORE_SHUTDOWN_GRACE"],
  ["PETSTORE_EDGE_HTTP_PORT", "70000", "must be a port from 0 to 65535"],
  ["PETSTORE_EDGE_HTTPS_PORT", "-1", "must be a port from 0 to 65535"],
  ["PETSTORE_EDGE_CACHE_SIZE", "0", "must be an integer from 1 to 1000000"],
  ["PETSTORE_EDGE_CACHE_TTL", "2 days", "must be from 1 second to 1 day"],
  ["PETSTORE_EDGE_UNKNOWN_NAME_LIMIT", "many", "PETSTORE_EDGE_UNKNOWN_NAME_LIMIT"],
  ["PETSTORE_EDGE_UNKNOWN_NAME_WINDOW", "500 millis", "must be from 1 second to 1 day"],
  ["PETSTORE_RATE_LIMIT_PER_KEY", "0", "must be an integer from 1 to 1000000"],
  ["PETSTORE_RATE_LIMIT_PER_ADDRESS", "1000001", "must be an integer from 1 to 1000000"],
  ["PETSTORE_RATE_LIMIT_WINDOW", "soon", "PETSTORE_RATE_LIMIT_WINDOW"],
  ["REDIS_URL", "http://127.0.0.1:6379", "must be a redis:// or rediss:// URL"],
  ["PETSTORE_BOOTSTRAP_KEY", "pk_live_short_guessable", "at least 24 characters"],
  ["PETSTORE_VERIFY_COOLDOWN", "2 hours", "must be from 0 seconds to 1 hour"],
  ...Object.values(limitVariables).map(
    (variable) => [variable, "0", "must be an integer from 1 to 1000000"] as const
  )
]

/** The variables whose values are never shown, refused or not. */
const secrets = ["PETSTORE_BOOTSTRAP_KEY", "REDIS_URL"]

const database = "postgres://petstore:s3cret-pw@127.0.0.1:5432/petstore"

describe("the API's configuration (ApiConfig)", () => {
  it.effect("decodes an empty environment to the documented defaults", () =>
    Effect.gen(function* () {
      const config = Result.getOrThrow(yield* decode(ApiConfig, {}))
      expect(config).toEqual({
        ...sharedDefaults,
        server: { port: 3000, host: "0.0.0.0", requestTimeout: seconds(10), shutdownGrace: seconds(10) },
        storage: { _tag: "Embedded", dataDir: "./.data" },
        edge: {
          httpPort: 8080,
          httpsPort: 8443,
          cacheCapacity: 10_000,
          cacheTimeToLive: seconds(60),
          unknownNameLimit: 60,
          unknownNameWindow: seconds(60)
        },
        bootstrapKey: Option.none(),
        verifyCooldown: seconds(10),
        limits: {
          projectsPerAccount: 100,
          domainsPerProject: 50,
          webhooksPerProject: 10,
          claimsPerAccount: 20,
          pendingClaimsPerAccount: 5,
          uploadingDeploysPerProject: 3
        },
        rateLimits: { perKey: 10_000, perAddress: 2_000, window: seconds(60) },
        redisUrl: Option.none(),
        // The embedded store admits one process: the API runs the worker's loops, on the worker's knobs.
        inProcessChecks: Option.some(checkDefaults)
      })
    })
  )

  it.effect.each([...sharedBadValues, ...apiBadValues])(
    "refuses %s=%j, naming it: %s",
    ([name, value, says]) =>
      Effect.gen(function* () {
        const message = yield* refusal(ApiConfig, { [name]: value })
        expect(message).toContain(name)
        expect(message).toContain(says)
        // A refused value may be a secret: it is named, never shown.
        if (secrets.includes(name)) expect(message).not.toContain(value)
      })
  )

  it.effect("PETSTORE_STORAGE=postgres without DATABASE_URL names DATABASE_URL", () =>
    Effect.gen(function* () {
      expect(yield* refusal(ApiConfig, { PETSTORE_STORAGE: "postgres" })).toContain(
        "PETSTORE_STORAGE=postgres needs DATABASE_URL"
      )
    })
  )

  it.effect(
    "on PostgreSQL leaves the loops, and their knobs, to the worker: PETSTORE_WORKER_* are not read",
    () =>
      Effect.gen(function* () {
        const config = Result.getOrThrow(
          yield* decode(ApiConfig, { DATABASE_URL: database, PETSTORE_WORKER_CONCURRENCY: "0" })
        )
        expect(config.storage).toMatchObject({ _tag: "Postgres", dataDir: "./.data" })
        expect(config.inProcessChecks).toEqual(Option.none())
        const memory = Result.getOrThrow(yield* decode(ApiConfig, { PETSTORE_STORAGE: "memory" }))
        expect(memory.inProcessChecks).toEqual(Option.some(checkDefaults))
      })
  )

  it.effect("keeps the secrets it reads redacted", () =>
    Effect.gen(function* () {
      const config = Result.getOrThrow(
        yield* decode(ApiConfig, {
          DATABASE_URL: database,
          PETSTORE_BOOTSTRAP_KEY: "pk_live_local_demo_key_1234",
          PETSTORE_SECRET_KEY: "the configured secret",
          REDIS_URL: "redis://user:redis-pw@127.0.0.1:6380/2"
        })
      )
      const shown = JSON.stringify(config) + String(config.storage._tag === "Postgres" && config.storage.url)
      for (const secret of ["s3cret-pw", "pk_live_local_demo_key_1234", "the configured secret", "redis-pw"])
        expect(shown).not.toContain(secret)
      expect(Option.map(config.redisUrl, (url) => Redacted.value(url).href)).toEqual(
        Option.some("redis://user:redis-pw@127.0.0.1:6380/2")
      )
      expect(Option.map(config.bootstrapKey, Redacted.value)).toEqual(
        Option.some("pk_live_local_demo_key_1234")
      )
    })
  )
})

describe("the key CLI's configuration (KeyStorageConfig)", () => {
  it.effect(
    "decodes an empty environment to the server's defaults, and refuses what the server refuses",
    () =>
      Effect.gen(function* () {
        expect(Result.getOrThrow(yield* decode(KeyStorageConfig, {}))).toEqual({
          storage: { _tag: "Embedded", dataDir: "./.data" },
          secretKey: undefined
        })
        expect(yield* refusal(KeyStorageConfig, { PETSTORE_STORAGE: "sqlite" })).toContain("PETSTORE_STORAGE")
      })
  )
})

describe("the worker's configuration (WorkerConfig)", () => {
  it.effect("needs DATABASE_URL, and decodes an environment of it alone to the documented defaults", () =>
    Effect.gen(function* () {
      expect(yield* refusal(WorkerConfig, {})).toContain("DATABASE_URL")
      const config = Result.getOrThrow(yield* decode(WorkerConfig, { DATABASE_URL: database }))
      expect(Redacted.value(config.storage.url)).toBe(database)
      expect({ ...config, storage: { ...config.storage, url: "(redacted)" } }).toEqual({
        ...sharedDefaults,
        storage: { url: "(redacted)", dataDir: "./.data" },
        checks: checkDefaults
      })
    })
  )

  it.effect.each([
    ...sharedBadValues,
    ["PETSTORE_WORKER_METRICS_PORT", "65536", "must be a port from 0 to 65535"] as const
  ])("refuses %s=%j, naming it: %s", ([name, value, says]) =>
    Effect.gen(function* () {
      const message = yield* refusal(WorkerConfig, { DATABASE_URL: database, [name]: value })
      expect(message).toContain(name)
      expect(message).toContain(says)
    })
  )

  it.effect("reads none of the API's own variables", () =>
    Effect.gen(function* () {
      const env = Object.fromEntries(apiBadValues.map(([name, value]) => [name, value]))
      expect(Result.isSuccess(yield* decode(WorkerConfig, { ...env, DATABASE_URL: database }))).toBe(true)
    })
  )
})
