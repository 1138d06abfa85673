/**
 * `/docs` through a real server: a page that loads scripts from this server only (no CDN, no inline
 * script), under a Content-Security-Policy allowing nothing else, and the reference UI's script served
 * byte for byte from the installed `@scalar/api-reference`, of the version its path names.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { expect, layer } from "@effect/vitest"
import { MemoryStore } from "@petstore/store-memory"
import { Effect } from "effect"
import { ApiReference, docsScriptPath, docsStartPath, openApiPath, scalarVersion } from "../src/index.js"
import { TestServer, TestServerLive } from "./support/TestServer.js"

const installedScript = createRequire(import.meta.url).resolve("@scalar/api-reference/browser/standalone.js")

const text = (response: Response) => Effect.promise(() => response.text())

/** The CSP's directives by name. */
const directives = (policy: string | null): Record<string, string> =>
  Object.fromEntries(
    (policy ?? "")
      .split(";")
      .map((directive) => directive.trim().split(/\s+/))
      .filter((parts) => parts[0] !== "")
      .map(([name, ...values]) => [name, values.join(" ")])
  )

layer(TestServerLive(MemoryStore.layer), { excludeTestServices: true })(
  "the API reference at /docs",
  (it) => {
    it.effect("loads scripts from this server only, under a policy that allows no other", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const docs = yield* server.request("/docs", { key: null })
        expect(docs.status).toBe(200)
        expect(docs.headers.get("content-type")).toBe("text/html; charset=utf-8")
        expect(docs.headers.get("x-content-type-options")).toBe("nosniff")
        const policy = directives(docs.headers.get("content-security-policy"))
        expect(policy).toEqual({
          "default-src": "'none'",
          "script-src": "'self'",
          "style-src": "'self' 'unsafe-inline'",
          "img-src": "'self' data:",
          "font-src": "'self'",
          "connect-src": "'self'",
          "base-uri": "'none'",
          "form-action": "'none'",
          "frame-ancestors": "'none'"
        })

        const page = yield* text(docs)
        expect(page).toContain("<title>Petstore</title>")
        // Every script has a same-origin path and no body: nothing inline, nothing from elsewhere.
        const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
        expect(scripts.map(([, attributes]) => attributes?.trim())).toEqual([
          `src="${docsScriptPath}"`,
          `src="${docsStartPath}"`
        ])
        expect(scripts.map(([, , body]) => body)).toEqual(["", ""])
        const references = [...page.matchAll(/\b(?:src|href)="([^"]*)"/g)].map(([, url]) => url ?? "")
        expect(references.filter((url) => !url.startsWith("/") || url.startsWith("//"))).toEqual(["data:,"])
        expect(page).not.toMatch(/https?:|cdn|jsdelivr/i)
      })
    )

    it.effect("serves the installed reference UI's script, which browsers may keep", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const installed = readFileSync(installedScript)
        const manifest = JSON.parse(
          readFileSync(join(dirname(installedScript), "../../package.json"), "utf8")
        )
        expect(manifest.version).toBe(scalarVersion)
        expect(docsScriptPath).toBe(`/docs/scalar-api-reference-${scalarVersion}.js`)

        const script = yield* server.request(docsScriptPath, { key: null })
        expect(script.status).toBe(200)
        expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
        expect(script.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
        expect(script.headers.get("content-security-policy")).toBe(ApiReference.contentSecurityPolicy)
        expect(script.headers.get("x-content-type-options")).toBe("nosniff")
        const body = Buffer.from(yield* Effect.promise(() => script.arrayBuffer()))
        expect(body.length).toBe(installed.length)
        expect(body.equals(installed)).toBe(true)

        const head = yield* server.request(docsScriptPath, { key: null, method: "HEAD" })
        expect(head.status).toBe(200)
        expect(yield* text(head)).toBe("")
      })
    )

    it.effect("starts the UI from a script of its own, on the OpenAPI document", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const start = yield* server.request(docsStartPath, { key: null })
        expect(start.status).toBe(200)
        expect(start.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
        expect(start.headers.get("content-security-policy")).toBe(ApiReference.contentSecurityPolicy)
        const body = yield* text(start)
        expect(body).toMatch(/^Scalar\.createApiReference\(document\.getElementById\("api-reference"\), \{/)
        expect(body).toContain(`"url":"${openApiPath}"`)
        expect(body).toContain('"showDeveloperTools":"never"')
        expect(body).not.toMatch(/https?:/)
      })
    )

    it.effect("another version's script, or anything else under /docs, is not found", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        for (const path of [
          "/docs/scalar-api-reference-1.39.3.js",
          "/docs/standalone.js",
          "/docs/../package.json"
        ]) {
          const response = yield* server.request(path, { key: null })
          expect(response.status, path).toBe(404)
          yield* text(response)
        }
      })
    )
  }
)
