/**
 * The `Link` header (RFC 8288) to a list's next page: the list's path with the caller's parameters,
 * the cursor moved. Every list of the API pages this one way (`GET /v1/pets`, a project's events).
 */

/** `<path?name=value&…>; rel="next"`, the values percent-encoded, in the order given. */
export const nextPageLink = (
  path: string,
  parameters: ReadonlyArray<readonly [name: string, value: string | number]>
): string =>
  `<${path}?${parameters.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("&")}>; rel="next"`
