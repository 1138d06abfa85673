/**
 * The path of an HTTP request target (`/v1/pets?limit=2` → `/v1/pets`), read as text, never parsed as
 * a URL: a target such as `//host/x` is a path, not a host. Every listener that routes, logs or counts
 * by path (the API, the edge, the metrics) reads it the same way.
 */

/** Everything before the target's query (`?`) or fragment (`#`). */
export const pathOf = (target: string): string => {
  const query = target.indexOf("?")
  const fragment = target.indexOf("#")
  const end = query === -1 ? fragment : fragment === -1 ? query : Math.min(query, fragment)
  return end === -1 ? target : target.slice(0, end)
}
