/**
 * The paths the server answers outside the `HttpApi` operations: the OpenAPI document, the
 * interactive reference and the metrics. None needs a key.
 */
export const openApiPath = "/v1/openapi.json"
export const docsPath = "/docs"
export const metricsPath = "/metrics"

export const publicPaths: ReadonlySet<string> = new Set([openApiPath, docsPath, metricsPath])
