/**
 * The knobs of the loops that check domains, recheck claims and deliver webhooks, from the
 * environment: the `PETSTORE_WORKER_*` variables and the webhooks' (defaults, bounds, messages).
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Result } from "effect"
import { CustomDomainCheckConfig } from "../src/index.js"

const load = (env: Record<string, string>) =>
  Effect.result(CustomDomainCheckConfig).pipe(
    Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))
  )

describe("CustomDomainCheckConfig", () => {
  it.effect(
    "defaults to 16 at a time, batches of 100, a 1-second pause, 60-second leases, retries from 5 s",
    () =>
      Effect.gen(function* () {
        const options = Result.getOrThrow(yield* load({}))
        expect(options).toMatchObject({ concurrency: 16, batchSize: 100, deliveriesInFlight: 256 })
        expect(Duration.toMillis(options.pollInterval)).toBe(1_000)
        expect(Duration.toMillis(options.lease)).toBe(60_000)
        expect(Duration.toMillis(options.retryBase)).toBe(5_000)
        expect(Duration.toMillis(options.disableAfter)).toBe(72 * 3_600_000)
      })
  )

  it.effect("reads the knobs from the environment", () =>
    Effect.gen(function* () {
      const options = Result.getOrThrow(
        yield* load({
          PETSTORE_WORKER_CONCURRENCY: "8",
          PETSTORE_WORKER_BATCH_SIZE: "25",
          PETSTORE_WORKER_POLL_INTERVAL: "100 millis",
          PETSTORE_WORKER_LEASE: "5 seconds",
          PETSTORE_WEBHOOK_RETRY_BASE: "200 millis"
        })
      )
      expect(options).toMatchObject({ concurrency: 8, batchSize: 25 })
      expect(Duration.toMillis(options.pollInterval)).toBe(100)
      expect(Duration.toMillis(options.lease)).toBe(5_000)
      expect(Duration.toMillis(options.retryBase)).toBe(200)
    })
  )

  it.effect.each<readonly [string, string, string]>([
    ["PETSTORE_WORKER_CONCURRENCY", "0", "must be an integer from 1 to 1000"],
    ["PETSTORE_WORKER_CONCURRENCY", "1001", "must be an integer from 1 to 1000"],
    ["PETSTORE_WORKER_BATCH_SIZE", "10001", "must be an integer from 1 to 10000"],
    ["PETSTORE_WORKER_BATCH_SIZE", "many", "PETSTORE_WORKER_BATCH_SIZE"],
    ["PETSTORE_WORKER_LEASE", "soon", "PETSTORE_WORKER_LEASE"],
    ["PETSTORE_WEBHOOK_RETRY_BASE", "soon", "PETSTORE_WEBHOOK_RETRY_BASE"],
    ["PETSTORE_WEBHOOK_RETRY_BASE", "2 hours", "must be from 100 millis to 1 hour"]
  ])("refuses %s=%s, saying %s", ([name, value, message]) =>
    Effect.gen(function* () {
      const loaded = yield* load({ [name]: value })
      expect(Result.isFailure(loaded)).toBe(true)
      if (Result.isFailure(loaded)) expect(String(loaded.failure)).toContain(message)
    })
  )
})
