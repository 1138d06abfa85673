/**
 * The interactive reference at `/docs`: Scalar's API reference UI, whose script this server serves
 * itself from the installed `@scalar/api-reference` package (pinned) instead of a CDN, so that the page
 * works offline and runs only code the server sent. The page, its script and the few lines that start
 * it carry a Content-Security-Policy that allows scripts from this origin only (no inline script, no
 * other host), and requests to this origin only (the OpenAPI document, the "test request" client).
 *
 * The script (3.2 MB) is streamed from the package's file at each request: never parsed by the server,
 * never held in its memory. Browsers keep it for a year: its path names its version.
 */
import { createRequire } from "node:module"
import { PetstoreApi } from "@petstore/api"
import { Effect, type Layer, Schema } from "effect"
import * as HttpPlatform from "effect/http/HttpPlatform"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as OpenApi from "effect/http-api/OpenApi"
import { docsPath, docsScriptPath, docsStartPath, openApiPath, scalarVersion } from "./PublicPaths.js"

/** The package file `docsScriptPath` serves: Scalar's self-contained browser bundle. */
const scalarModule = "@scalar/api-reference/browser/standalone.js"

/**
 * Scripts, styles, images, fonts and requests from this origin only; nothing may frame the page, and
 * no plugin, `<base>` or form may lead elsewhere. Styles also inline: Scalar inserts its stylesheet
 * as `<style>` elements and sets `style` attributes from script (in Chromium, without it the page is
 * unstyled). Images also `data:` URLs (the empty favicon, which spares the browser a request).
 */
export const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join("; ")

/** Why the server cannot serve its reference: the package is missing from the installation. */
export class ApiReferenceUnavailable extends Schema.TaggedError<ApiReferenceUnavailable>()(
  "ApiReferenceUnavailable",
  { message: Schema.String }
) {}

const securityHeaders = {
  "content-security-policy": contentSecurityPolicy,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer"
}

/**
 * Scalar's configuration: the document it reads; no web fonts from Scalar's servers (1.43.5 declares
 * them all the same, and the policy blocks them: the page uses the system's fonts); no developer
 * toolbar, which Scalar shows on `localhost` with links to its own services.
 */
const scalarConfiguration = {
  _integration: "html",
  url: openApiPath,
  withDefaultFonts: false,
  showDeveloperTools: "never"
}

/** `JSON.stringify`, safe inside a script: no `</script>`, no line terminators JavaScript rejects. */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replaceAll("<", "\\u003c")
    .replaceAll("\u2028", "\\u2028")
    .replaceAll("\u2029", "\\u2029")

const escapeHtml = (text: string): string =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;")

const startScript = `Scalar.createApiReference(document.getElementById("api-reference"), ${scriptJson(scalarConfiguration)})\n`

const page = (title: string): string => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(title)}</title>
    <link rel="icon" href="data:," />
  </head>
  <body>
    <noscript>This reference needs JavaScript. The OpenAPI document is at <a href="${openApiPath}">${openApiPath}</a>.</noscript>
    <div id="api-reference"></div>
    <script src="${docsScriptPath}"></script>
    <script src="${docsStartPath}"></script>
  </body>
</html>
`

/** Where the installed package's script is; a missing package stops the start rather than a page. */
const resolveScript = Effect.try({
  try: () => createRequire(import.meta.url).resolve(scalarModule),
  catch: (cause) =>
    new ApiReferenceUnavailable({
      message: `the API reference UI is not installed (${scalarModule}, @scalar/api-reference ${scalarVersion}): ${
        cause instanceof Error ? cause.message.split("\n")[0] : String(cause)
      }`
    })
})

/** `GET /docs`, its script and its start-up lines, each with the security headers. */
export const layer: Layer.Layer<
  never,
  ApiReferenceUnavailable,
  HttpRouter.HttpRouter | HttpPlatform.HttpPlatform
> = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const script = yield* resolveScript
    const platform = yield* HttpPlatform.HttpPlatform
    // Made at the first request, not at start: building the OpenAPI document costs milliseconds.
    let html: string | undefined
    yield* router.add(
      "GET",
      docsPath,
      Effect.sync(() => {
        html ??= page(OpenApi.fromApi(PetstoreApi).info.title)
        return HttpServerResponse.text(html, {
          contentType: "text/html; charset=utf-8",
          headers: { ...securityHeaders, "cache-control": "no-cache" }
        })
      })
    )
    yield* router.add(
      "GET",
      docsStartPath,
      HttpServerResponse.text(startScript, {
        contentType: "text/javascript; charset=utf-8",
        headers: { ...securityHeaders, "cache-control": "no-cache" }
      })
    )
    yield* router.add(
      "GET",
      docsScriptPath,
      platform
        .fileResponse(script, {
          contentType: "text/javascript; charset=utf-8",
          headers: { ...securityHeaders, "cache-control": "public, max-age=31536000, immutable" }
        })
        .pipe(
          // The file was there at start: gone now, the installation is broken (500, logged).
          Effect.orDie
        )
    )
  })
)
