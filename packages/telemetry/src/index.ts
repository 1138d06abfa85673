/**
 * @petstore/telemetry: OpenTelemetry traces for the apps, exported when a collector is configured,
 * and the worker's Prometheus metrics.
 */
export * as Tracing from "./Tracing.js"
export * as WorkerMetrics from "./WorkerMetrics.js"
