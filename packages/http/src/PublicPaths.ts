/**
 * The paths the server answers outside the `HttpApi` operations: the OpenAPI document and the
 * interactive reference (its page and its two scripts). None needs a key. (The metrics are not here: they have a listener of
 * their own.)
 */
export const openApiPath = "/v1/openapi.json"
export const docsPath = "/docs"

/** The version of Scalar's reference UI installed (`@scalar/api-reference`, pinned in package.json). */
export const scalarVersion = "1.43.5"
/** The UI's script, served from the installed package; its version in the path lets browsers keep it. */
export const docsScriptPath = `${docsPath}/scalar-api-reference-${scalarVersion}.js`
/** The lines that start the UI on the page (a script of this origin: the page has no inline script). */
export const docsStartPath = `${docsPath}/start.js`

export const publicPaths: ReadonlySet<string> = new Set([
  openApiPath,
  docsPath,
  docsScriptPath,
  docsStartPath
])
