/**
 * The shared configuration, resolving without the `module` condition: OpenTelemetry's `module` builds
 * use extensionless imports, which only bundlers resolve; Node (and so vitest) needs their CommonJS.
 */
import { defineConfig } from "vitest/config"
import shared from "../../tooling/vitest/vitest.shared.ts"

const conditions = ["@petstore/source", "node"]

export default defineConfig({ ...shared, resolve: { conditions }, ssr: { resolve: { conditions } } })
