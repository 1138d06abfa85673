/**
 * The paths the server answers outside the `HttpApi` operations: the OpenAPI document and the
 * interactive reference. None needs a key. (The metrics are not here: they have a listener of
 * their own.)
 */
export const openApiPath = "/v1/openapi.json"
export const docsPath = "/docs"

export const publicPaths: ReadonlySet<string> = new Set([openApiPath, docsPath])
