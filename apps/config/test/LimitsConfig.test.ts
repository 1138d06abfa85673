/**
 * The limits from the environment: the contract's defaults, each variable read on its own, and
 * refusals that name the variable and the rule.
 */
import { describe, expect, it } from "@effect/vitest"
import { defaultLimits } from "@petstore/kernel"
import { ConfigProvider, Effect } from "effect"
import { LimitsConfig, limitVariables } from "../src/index.js"

const limitsFrom = (env: Record<string, string>) =>
  LimitsConfig.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env })))

describe("LimitsConfig", () => {
  it.effect("defaults to the contract's limits", () =>
    Effect.gen(function* () {
      expect(yield* limitsFrom({})).toEqual({
        projectsPerAccount: 100,
        domainsPerProject: 50,
        webhooksPerProject: 10,
        claimsPerAccount: 20,
        pendingClaimsPerAccount: 5,
        uploadingDeploysPerProject: 3
      })
    })
  )

  it.effect.each(Object.entries(limitVariables))("reads %s from %s alone", ([name, variable]) =>
    Effect.gen(function* () {
      const limits = yield* limitsFrom({ [variable]: "7" })
      expect(limits).toEqual({ ...defaultLimits, [name]: 7 })
    })
  )

  it.effect.each(["0", "-1", "1.5", "ten", "1000001"])(
    "refuses %j, naming the variable and the rule",
    (value) =>
      Effect.gen(function* () {
        const message = String(yield* Effect.flip(limitsFrom({ PETSTORE_LIMIT_DOMAINS_PER_PROJECT: value })))
        expect(message).toContain("PETSTORE_LIMIT_DOMAINS_PER_PROJECT")
      })
  )
})
