/**
 * Traces reach a collector over OTLP/HTTP when an endpoint is given, nested as they ran; with none
 * (whatever the environment says), no tracer runs at all.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, References } from "effect"
import { Tracing } from "../src/index.js"
import { startFakeCollector } from "./support/FakeCollector.js"

const startCollector = () =>
  Effect.acquireRelease(Effect.promise(startFakeCollector), (collector) => Effect.promise(collector.close))

const withEnvironment = (variables: Record<string, string>) =>
  Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: variables }))

describe("withTracing", () => {
  it.effect("exports the spans to the collector, nested as they ran, named by service", () =>
    Effect.gen(function* () {
      const collector = yield* startCollector()
      const job = Effect.void.pipe(
        Effect.withSpan("child"),
        Effect.andThen(Effect.void.pipe(Effect.withSpan("sibling"))),
        Effect.withSpan("parent")
      )
      // Nothing in the environment: the endpoint given is the one used.
      yield* job.pipe(
        Tracing.withTracing({ serviceName: "petstore-test", endpoint: collector.url }),
        withEnvironment({})
      )
      const byName = new Map(collector.spans.map((span) => [span.name, span]))
      expect([...byName.keys()].sort()).toEqual(["child", "parent", "sibling"])
      const parent = byName.get("parent")
      expect(parent?.parentSpanId).toBeUndefined()
      expect(byName.get("child")?.parentSpanId).toBe(parent?.spanId)
      expect(byName.get("sibling")?.parentSpanId).toBe(parent?.spanId)
      expect(collector.spans.every((span) => span.service === "petstore-test")).toBe(true)
    })
  )

  it.effect("OpenTelemetry's own settings still apply: OTEL_TRACES_EXPORTER=none exports nothing", () =>
    Effect.gen(function* () {
      const collector = yield* startCollector()
      yield* Effect.void.pipe(
        Effect.withSpan("unseen"),
        Tracing.withTracing({ serviceName: "petstore-test", endpoint: collector.url }),
        withEnvironment({ OTEL_TRACES_EXPORTER: "none" })
      )
      expect(collector.spans).toEqual([])
    })
  )

  it.effect("without an endpoint, runs with the tracer disabled", () =>
    Effect.gen(function* () {
      const enabled = yield* References.TracerEnabled.pipe(
        Tracing.withTracing({ serviceName: "petstore-test" }),
        withEnvironment({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })
      )
      expect(enabled).toBe(false)
    })
  )
})
