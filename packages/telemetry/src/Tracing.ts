/**
 * Traces, exported to an OpenTelemetry collector (OTLP/HTTP, JSON) when the options name its endpoint:
 * Effect's spans (one per request, per SQL statement, per DNS lookup, per worker job) are batched and
 * sent by Effect's own OTLP exporter. Given none, the tracer is disabled, so no span is built per
 * request or query for nobody.
 *
 * How the exporter talks to the collector (a traces-only endpoint, headers, compression, timeouts,
 * batching) is OpenTelemetry's standard `OTEL_*` settings, which Effect's exporter reads itself, as
 * OpenTelemetry asks of every SDK; the endpoint given here is the one it uses.
 */
import { ConfigProvider, Effect, Layer } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as OtlpSerialization from "effect/observability/OtlpSerialization"
import * as OtlpTracer from "effect/observability/OtlpTracer"

export interface Options {
  /** The `service.name` of every span. */
  readonly serviceName: string
  /** The collector's OTLP/HTTP endpoint (its base URL: traces go to `/v1/traces`); omitted: no tracer. */
  readonly endpoint?: string | undefined
}

/**
 * The endpoint given, for Effect's exporter, and OpenTelemetry's default for `OTEL_TRACES_EXPORTER`
 * (`otlp`), which Effect's exporter treats as unset and so exports nothing: consulted only when the
 * variable is not set, so `none` still wins.
 */
const exporterSettings = (endpoint: string) =>
  ConfigProvider.layerAdd(ConfigProvider.fromEnv({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint } }), {
    asPrimary: true
  }).pipe(
    Layer.provide(ConfigProvider.layerAdd(ConfigProvider.fromEnv({ env: { OTEL_TRACES_EXPORTER: "otlp" } })))
  )

/** Effect's OTLP tracer, JSON over `fetch`; its scope's end flushes the spans not yet sent. */
const exportingLayer = (serviceName: string, endpoint: string) =>
  OtlpTracer.layerFromConfig({ resource: { serviceName } }).pipe(
    Layer.provide([OtlpSerialization.layerJson, FetchHttpClient.layer, exporterSettings(endpoint)])
  )

/**
 * Runs `effect` with its spans exported to the endpoint as `serviceName`, or with the tracer disabled
 * when there is none. Spans still open at the end are flushed when `effect` ends.
 */
export const withTracing =
  ({ serviceName, endpoint }: Options) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    endpoint === undefined
      ? Effect.withTracerEnabled(effect, false)
      : Effect.provide(effect, exportingLayer(serviceName, endpoint))
