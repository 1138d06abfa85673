/**
 * Traces, exported to an OpenTelemetry collector (OTLP/HTTP, JSON) when `OTEL_EXPORTER_OTLP_ENDPOINT`
 * is set: Effect's spans (one per request, per SQL statement, per DNS lookup, per worker job) are
 * batched and sent by Effect's own OTLP exporter, which reads the other standard `OTEL_*` variables
 * itself (a traces-only endpoint, headers, compression, timeouts, batching). Unset: the tracer is
 * disabled, so no span is built per request or query for nobody.
 */
import { Config, ConfigProvider, Effect, Layer, Option } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as OtlpSerialization from "effect/observability/OtlpSerialization"
import * as OtlpTracer from "effect/observability/OtlpTracer"

export const OtlpEndpointConfig = Config.option(Config.String("OTEL_EXPORTER_OTLP_ENDPOINT"))

/**
 * OpenTelemetry's default for `OTEL_TRACES_EXPORTER` is `otlp`; Effect's reader of the variables treats
 * it as unset and exports nothing. Consulted only when the variable is not set, so `none` still wins.
 */
const otlpExporterByDefault = ConfigProvider.layerAdd(
  ConfigProvider.fromEnv({ env: { OTEL_TRACES_EXPORTER: "otlp" } })
)

/** Effect's OTLP tracer, JSON over `fetch`; its scope's end flushes the spans not yet sent. */
const exportingLayer = (serviceName: string) =>
  OtlpTracer.layerFromConfig({ resource: { serviceName } }).pipe(
    Layer.provide([OtlpSerialization.layerJson, FetchHttpClient.layer, otlpExporterByDefault])
  )

/**
 * Runs `effect` with tracing exported as `serviceName` when the endpoint is configured, else with
 * the tracer disabled. Spans still open at the end are flushed when `effect` ends.
 */
export const withTracing =
  (serviceName: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | Config.ConfigError, R> =>
    Effect.flatMap(OtlpEndpointConfig, (endpoint) =>
      Option.isNone(endpoint)
        ? Effect.withTracerEnabled(effect, false)
        : Effect.provide(effect, exportingLayer(serviceName))
    )
