/**
 * The resolver's settings from the environment: defaults, accepted values, and refusals that name
 * the variable and say what is wrong.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect } from "effect"
import { NodeDnsResolver } from "../src/index.js"

const optionsFrom = (env: Record<string, string>) =>
  NodeDnsResolver.optionsConfig.pipe(
    Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))
  )

const refusal = (env: Record<string, string>) => Effect.map(Effect.flip(optionsFrom(env)), String)

describe("NodeDnsResolver.optionsConfig", () => {
  it.effect("defaults: the system's servers, 2 seconds a try, 2 tries", () =>
    Effect.gen(function* () {
      const options = yield* optionsFrom({})
      expect(options.servers).toBeUndefined()
      expect(Duration.toMillis(options.timeout ?? Duration.zero)).toBe(2_000)
      expect(options.tries).toBe(2)
    })
  )

  it.effect("reads the servers (normalised), the timeout and the tries", () =>
    Effect.gen(function* () {
      const options = yield* optionsFrom({
        PETSTORE_DNS_SERVERS: " 127.0.0.1:8053 , [::1]",
        PETSTORE_DNS_TIMEOUT: "10 seconds",
        PETSTORE_DNS_TRIES: "1"
      })
      expect(options.servers).toStrictEqual(["127.0.0.1:8053", "::1"])
      expect(Duration.toMillis(options.timeout ?? Duration.zero)).toBe(10_000)
      expect(options.tries).toBe(1)
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

  it.effect("refuses tries outside 1 to 10, and a timeout that is no duration", () =>
    Effect.gen(function* () {
      const tries = yield* refusal({ PETSTORE_DNS_TRIES: "11" })
      expect(tries).toContain("PETSTORE_DNS_TRIES")
      expect(tries).toContain("must be an integer from 1 to 10")
      expect(yield* refusal({ PETSTORE_DNS_TRIES: "0" })).toContain("must be an integer from 1 to 10")
      expect(yield* refusal({ PETSTORE_DNS_TIMEOUT: "soon" })).toContain("PETSTORE_DNS_TIMEOUT")
    })
  )
})
