/**
 * Verify's cool-down from the environment: its default, accepted durations (zero too), and refusals
 * that name the variable and say what is wrong.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect } from "effect"
import { VerifyCooldownConfig } from "../src/index.js"

const cooldownFrom = (env: Record<string, string>) =>
  VerifyCooldownConfig.pipe(
    Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))
  )

const refusal = (value: string) =>
  Effect.map(Effect.flip(cooldownFrom({ PETSTORE_VERIFY_COOLDOWN: value })), String)

describe("VerifyCooldownConfig", () => {
  it.effect("defaults to 10 seconds, unset or empty (as every variable)", () =>
    Effect.gen(function* () {
      expect(Duration.toMillis(yield* cooldownFrom({}))).toBe(10_000)
      expect(Duration.toMillis(yield* cooldownFrom({ PETSTORE_VERIFY_COOLDOWN: "" }))).toBe(10_000)
    })
  )

  it.effect.each([
    ["0 seconds", 0],
    ["0 millis", 0],
    ["250 millis", 250],
    ["30 seconds", 30_000],
    ["1 hour", 3_600_000]
  ] as const)("reads %s", ([value, millis]) =>
    Effect.gen(function* () {
      expect(Duration.toMillis(yield* cooldownFrom({ PETSTORE_VERIFY_COOLDOWN: value }))).toBe(millis)
    })
  )

  it.effect.each(["soon", "10", "-1 seconds", "10 seconds later"])(
    "refuses %j, naming the variable",
    (value) =>
      Effect.gen(function* () {
        expect(yield* refusal(value)).toContain("PETSTORE_VERIFY_COOLDOWN")
      })
  )

  it.effect.each(["61 minutes", "2 hours", "Infinity"])("refuses %s: over 1 hour, saying so", (value) =>
    Effect.gen(function* () {
      const message = yield* refusal(value)
      expect(message).toContain("PETSTORE_VERIFY_COOLDOWN")
      expect(message).toContain("must be from 0 seconds to 1 hour")
    })
  )
})
