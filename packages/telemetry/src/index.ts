/**
 * @petstore/telemetry: the apps' JSON log lines, OpenTelemetry traces exported when a collector is
 * configured, the worker's Prometheus metrics, and the listener both apps serve their metrics on.
 */
export * as JsonLogger from "./JsonLogger.js"
export * as MetricsListener from "./MetricsListener.js"
export * as Tracing from "./Tracing.js"
export * as WorkerMetrics from "./WorkerMetrics.js"
