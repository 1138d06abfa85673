/**
 * What the production bundle gets for `node:http` (esbuild `--alias`, see `package.json`): the module
 * through `require`, and only the exports the bundle uses.
 *
 * Imported as an ES module, Node 22's `node:http` reads every one of its exports once to build the
 * module's namespace, and three of them (`WebSocket`, `CloseEvent`, `MessageEvent`) are lazy getters
 * that load undici: about 10 MB of resident memory in a process that never uses them (measured:
 * 45 MB after `require("node:http")`, 55 MB after `import("node:http")`). Naming the exports reads
 * only those. A name the bundle imports and this module does not export fails the build.
 */
import { createRequire } from "node:module"

const http: typeof import("node:http") = createRequire(import.meta.url)("node:http")

export const { createServer, request, ServerResponse } = http
