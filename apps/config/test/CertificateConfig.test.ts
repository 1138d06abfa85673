/**
 * The certificate delay from the environment: its default, accepted durations, and refusals that name
 * the variable and say what is wrong.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect } from "effect"
import { CertificateDelayConfig } from "../src/index.js"

const delayFrom = (env: Record<string, string>) =>
  CertificateDelayConfig.pipe(
    Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))
  )

const refusal = (value: string) =>
  Effect.map(Effect.flip(delayFrom({ PETSTORE_CERTIFICATE_DELAY_AFTER: value })), String)

describe("CertificateDelayConfig", () => {
  it.effect("defaults to 30 minutes, unset or empty (as every variable)", () =>
    Effect.gen(function* () {
      expect(Duration.toMillis(yield* delayFrom({}))).toBe(30 * 60_000)
      expect(Duration.toMillis(yield* delayFrom({ PETSTORE_CERTIFICATE_DELAY_AFTER: "" }))).toBe(30 * 60_000)
    })
  )

  it.effect.each([
    ["10 seconds", 10_000],
    ["1 second", 1_000],
    ["45 minutes", 45 * 60_000],
    ["2 hours", 2 * 3_600_000],
    ["1 day", 24 * 3_600_000]
  ] as const)("reads %s", ([value, millis]) =>
    Effect.gen(function* () {
      expect(Duration.toMillis(yield* delayFrom({ PETSTORE_CERTIFICATE_DELAY_AFTER: value }))).toBe(millis)
    })
  )

  it.effect.each(["soon", "30", "-5 minutes", "30 minutes later"])(
    "refuses %j, naming the variable",
    (value) =>
      Effect.gen(function* () {
        expect(yield* refusal(value)).toContain("PETSTORE_CERTIFICATE_DELAY_AFTER")
      })
  )

  it.effect.each(["0 millis", "999 millis", "25 hours", "Infinity"])(
    "refuses %s: outside 1 second to 1 day, saying so",
    (value) =>
      Effect.gen(function* () {
        const message = yield* refusal(value)
        expect(message).toContain("PETSTORE_CERTIFICATE_DELAY_AFTER")
        expect(message).toContain("must be from 1 second to 1 day")
      })
  )
})
