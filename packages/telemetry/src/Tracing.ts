/**
 * Traces, exported to an OpenTelemetry collector (OTLP over HTTP) when `OTEL_EXPORTER_OTLP_ENDPOINT`
 * is set: Effect's spans (one per request, per SQL statement, per DNS lookup, per worker job) become
 * OpenTelemetry spans. The exporter reads the other standard `OTEL_*` variables itself (headers,
 * timeouts). Unset: no tracer at all, so no span is built per request or query for nobody, and none
 * of the OpenTelemetry code is loaded.
 */
import { Config, type ConfigError, Effect, Layer, Option } from "effect"

export const OtlpEndpointConfig = Config.option(Config.string("OTEL_EXPORTER_OTLP_ENDPOINT"))

/**
 * The exports of a package imported on demand: Node lists a CommonJS package's exports by name, a
 * bundle (the apps' esbuild build) gives them as `default`.
 */
const exportsOf = <A extends object>(module: A): A => {
  const fallback: unknown = "default" in module ? module.default : undefined
  return typeof fallback === "object" && fallback !== null ? (fallback as A) : module
}

/** The OpenTelemetry SDK with a batching OTLP exporter; loaded only when traces are exported. */
const exportingLayer = (serviceName: string) =>
  Layer.unwrapEffect(
    Effect.promise(async () => {
      const [effectSdk, traceSdk, exporter] = await Promise.all([
        import("@effect/opentelemetry"),
        import("@opentelemetry/sdk-trace-base"),
        import("@opentelemetry/exporter-trace-otlp-http")
      ])
      const { NodeSdk } = exportsOf(effectSdk)
      const { BatchSpanProcessor } = exportsOf(traceSdk)
      const { OTLPTraceExporter } = exportsOf(exporter)
      return NodeSdk.layer(() => ({
        resource: { serviceName },
        spanProcessor: new BatchSpanProcessor(new OTLPTraceExporter())
      }))
    })
  )

/**
 * Runs `effect` with tracing exported as `serviceName` when the endpoint is configured, else with
 * the tracer disabled. Spans still open at the end are flushed when `effect` ends.
 */
export const withTracing =
  (serviceName: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | ConfigError.ConfigError, R> =>
    Effect.flatMap(OtlpEndpointConfig, (endpoint) =>
      Option.isNone(endpoint)
        ? Effect.withTracerEnabled(effect, false)
        : Effect.provide(effect, exportingLayer(serviceName))
    )
