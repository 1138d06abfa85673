/**
 * Which variables choose the apps' metrics listeners: none unless a port is set, 127.0.0.1 unless
 * `PETSTORE_METRICS_HOST` says otherwise, a port out of range refused naming the variable, and for
 * the worker alone the variable's earlier name read when the new one is not set.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option } from "effect"
import { MetricsConfig, WorkerMetricsConfig } from "../src/index.js"

const readWith = (config: typeof MetricsConfig) => (env: Record<string, string>) =>
  config.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env })))

const settings = "PETSTORE_METRICS_PORT, PETSTORE_METRICS_HOST"

describe.each([
  ["the API's", MetricsConfig],
  ["the worker's", WorkerMetricsConfig]
] as const)("%s metrics configuration", (_, config) => {
  const read = readWith(config)

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

describe("the variable's earlier name, PETSTORE_WORKER_METRICS_PORT", () => {
  it.effect("is read by the worker when PETSTORE_METRICS_PORT is not set", () =>
    Effect.gen(function* () {
      const read = readWith(WorkerMetricsConfig)
      expect(yield* read({ PETSTORE_WORKER_METRICS_PORT: "9465" })).toEqual(
        Option.some({ host: "127.0.0.1", port: 9465, settings })
      )
      expect(yield* read({ PETSTORE_WORKER_METRICS_PORT: "9465", PETSTORE_METRICS_PORT: "9464" })).toEqual(
        Option.some({ host: "127.0.0.1", port: 9464, settings })
      )
      const error = yield* Effect.flip(read({ PETSTORE_WORKER_METRICS_PORT: "65536" }))
      expect(error.message).toContain("PETSTORE_WORKER_METRICS_PORT")
    })
  )

  it.effect("is not read by the API, which would otherwise open a listener on the worker's port", () =>
    Effect.gen(function* () {
      const read = readWith(MetricsConfig)
      expect(yield* read({ PETSTORE_WORKER_METRICS_PORT: "9465" })).toEqual(Option.none())
      expect(yield* read({ PETSTORE_WORKER_METRICS_PORT: "not a port" })).toEqual(Option.none())
    })
  )
})
