/**
 * The webhook settings from the environment: their defaults, accepted values, and refusals that name
 * the variable and say what is wrong.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect } from "effect"
import { WebhookConfig } from "../src/index.js"

const settingsFrom = (env: Record<string, string>) =>
  WebhookConfig.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env })))

const refusal = (env: Record<string, string>) => Effect.map(Effect.flip(settingsFrom(env)), String)

describe("WebhookConfig", () => {
  it.effect("defaults: private addresses refused, retries 5 seconds apart at first (unset or empty)", () =>
    Effect.gen(function* () {
      for (const env of [
        {},
        {
          PETSTORE_WEBHOOK_ALLOW_PRIVATE: "",
          PETSTORE_WEBHOOK_RETRY_BASE: "",
          PETSTORE_WEBHOOK_DISABLE_AFTER: "",
          PETSTORE_WEBHOOK_CONCURRENCY: ""
        }
      ]) {
        const settings = yield* settingsFrom(env)
        expect(settings.allowPrivate).toBe(false)
        expect(Duration.toMillis(settings.retryBase)).toBe(5_000)
        expect(Duration.toMillis(settings.disableAfter)).toBe(72 * 3_600_000)
        expect(settings.concurrency).toBe(256)
      }
    })
  )

  it.effect.each([
    ["true", true],
    ["false", false]
  ] as const)("PETSTORE_WEBHOOK_ALLOW_PRIVATE=%s", ([value, allowed]) =>
    Effect.gen(function* () {
      expect((yield* settingsFrom({ PETSTORE_WEBHOOK_ALLOW_PRIVATE: value })).allowPrivate).toBe(allowed)
    })
  )

  it.effect.each(["yes", "1", "TRUE", "on", "true ", "no"])(
    "refuses PETSTORE_WEBHOOK_ALLOW_PRIVATE=%j, naming the variable: only true or false",
    (value) =>
      Effect.gen(function* () {
        const message = yield* refusal({ PETSTORE_WEBHOOK_ALLOW_PRIVATE: value })
        expect(message).toContain("PETSTORE_WEBHOOK_ALLOW_PRIVATE")
        expect(message).toContain("must be true or false")
      })
  )

  it.effect.each([
    ["200 millis", 200],
    ["100 millis", 100],
    ["5 seconds", 5_000],
    ["2 minutes", 120_000],
    ["1 hour", 3_600_000]
  ] as const)("PETSTORE_WEBHOOK_RETRY_BASE=%s", ([value, millis]) =>
    Effect.gen(function* () {
      expect(Duration.toMillis((yield* settingsFrom({ PETSTORE_WEBHOOK_RETRY_BASE: value })).retryBase)).toBe(
        millis
      )
    })
  )

  it.effect.each(["soon", "5", "-5 seconds", "5 seconds later"])(
    "refuses PETSTORE_WEBHOOK_RETRY_BASE=%j, naming the variable",
    (value) =>
      Effect.gen(function* () {
        expect(yield* refusal({ PETSTORE_WEBHOOK_RETRY_BASE: value })).toContain(
          "PETSTORE_WEBHOOK_RETRY_BASE"
        )
      })
  )

  it.effect.each(["0 millis", "99 millis", "61 minutes", "Infinity"])(
    "refuses PETSTORE_WEBHOOK_RETRY_BASE=%s: outside 100 millis to 1 hour, saying so",
    (value) =>
      Effect.gen(function* () {
        const message = yield* refusal({ PETSTORE_WEBHOOK_RETRY_BASE: value })
        expect(message).toContain("PETSTORE_WEBHOOK_RETRY_BASE")
        expect(message).toContain("must be from 100 millis to 1 hour")
      })
  )

  it.effect.each([
    ["2 seconds", 2_000],
    ["1 second", 1_000],
    ["72 hours", 72 * 3_600_000],
    ["365 days", 365 * 86_400_000]
  ] as const)("PETSTORE_WEBHOOK_DISABLE_AFTER=%s", ([value, millis]) =>
    Effect.gen(function* () {
      const settings = yield* settingsFrom({ PETSTORE_WEBHOOK_DISABLE_AFTER: value })
      expect(Duration.toMillis(settings.disableAfter)).toBe(millis)
    })
  )

  it.effect.each(["999 millis", "366 days", "never", "Infinity"])(
    "refuses PETSTORE_WEBHOOK_DISABLE_AFTER=%s, naming the variable",
    (value) =>
      Effect.gen(function* () {
        expect(yield* refusal({ PETSTORE_WEBHOOK_DISABLE_AFTER: value })).toContain(
          "PETSTORE_WEBHOOK_DISABLE_AFTER"
        )
      })
  )

  it.effect.each([
    ["1", 1],
    ["10000", 10_000]
  ] as const)("PETSTORE_WEBHOOK_CONCURRENCY=%s", ([value, count]) =>
    Effect.gen(function* () {
      expect((yield* settingsFrom({ PETSTORE_WEBHOOK_CONCURRENCY: value })).concurrency).toBe(count)
    })
  )

  it.effect.each(["0", "10001", "1.5", "many"])("refuses PETSTORE_WEBHOOK_CONCURRENCY=%s", (value) =>
    Effect.gen(function* () {
      expect(yield* refusal({ PETSTORE_WEBHOOK_CONCURRENCY: value })).toContain(
        "PETSTORE_WEBHOOK_CONCURRENCY"
      )
    })
  )
})
