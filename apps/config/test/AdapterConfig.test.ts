/**
 * The adapters' settings from the environment: defaults, accepted values, and refusals that name the
 * variable and say what is wrong (the process prints them and stops before storage is touched).
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Redacted } from "effect"
import { AdapterConfig, OtlpEndpointConfig } from "../src/index.js"

const withEnvironment = (env: Record<string, string>) =>
  Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))

const settingsFrom = (env: Record<string, string>) => AdapterConfig.pipe(withEnvironment(env))

const refusal = (env: Record<string, string>) => Effect.map(Effect.flip(settingsFrom(env)), String)

describe("AdapterConfig", () => {
  it.effect(
    "defaults: the system's DNS servers, 2 seconds a try, 2 tries, the local CA, a generated secret",
    () =>
      Effect.gen(function* () {
        const { dns, acme, secretKey } = yield* settingsFrom({})
        expect(dns.servers).toBeUndefined()
        expect(Duration.toMillis(dns.timeout ?? Duration.zero)).toBe(2_000)
        expect(dns.tries).toBe(2)
        expect(acme).toBeUndefined()
        expect(secretKey).toBeUndefined()
      })
  )

  it.effect("reads the DNS servers (normalised), the timeout and the tries", () =>
    Effect.gen(function* () {
      const { dns } = yield* settingsFrom({
        PETSTORE_DNS_SERVERS: " 127.0.0.1:8053 , [::1]",
        PETSTORE_DNS_TIMEOUT: "10 seconds",
        PETSTORE_DNS_TRIES: "1"
      })
      expect(dns.servers).toStrictEqual(["127.0.0.1:8053", "::1"])
      expect(Duration.toMillis(dns.timeout ?? Duration.zero)).toBe(10_000)
      expect(dns.tries).toBe(1)
    })
  )

  it.effect("refuses a bad server list, naming the variable and every bad entry", () =>
    Effect.gen(function* () {
      const message = yield* refusal({ PETSTORE_DNS_SERVERS: "localhost,127.0.0.1:0" })
      expect(message).toContain("PETSTORE_DNS_SERVERS")
      expect(message).toContain('entry 1: "localhost" is not an IP address')
      expect(message).toContain('entry 2: port "0" must be a number from 1 to 65535')
    })
  )

  it.effect("refuses DNS tries outside 1 to 10, and a timeout that is no duration", () =>
    Effect.gen(function* () {
      const tries = yield* refusal({ PETSTORE_DNS_TRIES: "11" })
      expect(tries).toContain("PETSTORE_DNS_TRIES")
      expect(tries).toContain("must be an integer from 1 to 10")
      expect(yield* refusal({ PETSTORE_DNS_TRIES: "0" })).toContain("must be an integer from 1 to 10")
      expect(yield* refusal({ PETSTORE_DNS_TIMEOUT: "soon" })).toContain("PETSTORE_DNS_TIMEOUT")
    })
  )

  it.effect("an ACME directory chooses that CA, with its contact; the contact alone chooses nothing", () =>
    Effect.gen(function* () {
      const { acme } = yield* settingsFrom({
        PETSTORE_ACME_DIRECTORY_URL: "https://localhost:14000/dir",
        PETSTORE_ACME_EMAIL: "ops@example.com"
      })
      expect(acme?.directoryUrl.href).toBe("https://localhost:14000/dir")
      expect(acme?.email).toBe("ops@example.com")
      expect(
        (yield* settingsFrom({ PETSTORE_ACME_DIRECTORY_URL: "https://acme.test/dir" })).acme?.email
      ).toBe(undefined)
      expect((yield* settingsFrom({ PETSTORE_ACME_EMAIL: "ops@example.com" })).acme).toBeUndefined()
      expect(yield* refusal({ PETSTORE_ACME_DIRECTORY_URL: "not a url" })).toContain(
        "PETSTORE_ACME_DIRECTORY_URL"
      )
    })
  )

  it.effect("reads the secret for private keys, kept redacted", () =>
    Effect.gen(function* () {
      const { secretKey } = yield* settingsFrom({ PETSTORE_SECRET_KEY: "the configured secret" })
      expect(secretKey === undefined ? undefined : Redacted.value(secretKey)).toBe("the configured secret")
      expect(String(secretKey)).not.toContain("the configured secret")
    })
  )

  it.effect("reads the OpenTelemetry collector's endpoint; unset, none", () =>
    Effect.gen(function* () {
      expect(
        yield* OtlpEndpointConfig.pipe(
          withEnvironment({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })
        )
      ).toBe("http://127.0.0.1:4318")
      expect(yield* OtlpEndpointConfig.pipe(withEnvironment({}))).toBeUndefined()
    })
  )
})
