/**
 * @petstore/telemetry: the apps' JSON log lines, OpenTelemetry traces exported when a collector is
 * configured, and the worker's Prometheus metrics.
 */
export * as JsonLogger from "./JsonLogger.js"
export * as Tracing from "./Tracing.js"
export * as WorkerMetrics from "./WorkerMetrics.js"
