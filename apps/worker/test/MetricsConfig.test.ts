/**
 * Which variables choose the worker's metrics listener: none unless a port is set, 127.0.0.1 unless
 * `PETSTORE_METRICS_HOST` says otherwise, the variable's earlier name read when the new one is not
 * set, and a port out of range refused naming the variable.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option } from "effect"
import { MetricsConfig } from "../src/MetricsConfig.js"

const read = (env: Record<string, string>) =>
  MetricsConfig.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env })))

const settings = "PETSTORE_METRICS_PORT, PETSTORE_METRICS_HOST"

describe("the worker's metrics configuration", () => {
  it.effect("is off unless a port is set", () =>
    Effect.gen(function* () {
      expect(yield* read({})).toEqual(Option.none())
      expect(yield* read({ PETSTORE_METRICS_HOST: "0.0.0.0" })).toEqual(Option.none())
      expect(yield* read({ PETSTORE_METRICS_PORT: "9464" })).toEqual(
        Option.some({ host: "127.0.0.1", port: 9464, settings })
      )
      expect(yield* read({ PETSTORE_METRICS_PORT: "0", PETSTORE_METRICS_HOST: "0.0.0.0" })).toEqual(
        Option.some({ host: "0.0.0.0", port: 0, settings })
      )
    })
  )

  it.effect("reads PETSTORE_WORKER_METRICS_PORT when PETSTORE_METRICS_PORT is not set", () =>
    Effect.gen(function* () {
      expect(yield* read({ PETSTORE_WORKER_METRICS_PORT: "9465" })).toEqual(
        Option.some({ host: "127.0.0.1", port: 9465, settings })
      )
      expect(yield* read({ PETSTORE_WORKER_METRICS_PORT: "9465", PETSTORE_METRICS_PORT: "9464" })).toEqual(
        Option.some({ host: "127.0.0.1", port: 9464, settings })
      )
    })
  )

  it.effect("refuses a port out of range, naming the variable", () =>
    Effect.gen(function* () {
      for (const port of ["65536", "-1", "http", "80.5"]) {
        const error = yield* Effect.flip(read({ PETSTORE_METRICS_PORT: port }))
        expect(error.message).toContain("PETSTORE_METRICS_PORT")
      }
      const error = yield* Effect.flip(read({ PETSTORE_METRICS_PORT: "65536" }))
      expect(error.message).toContain("must be a port from 0 to 65535")
    })
  )
})
