/**
 * The one vitest configuration every package extends: tests run against each workspace package's
 * TypeScript sources (the `@petstore/source` export condition), so no build is needed to test.
 */
import { defaultServerConditions } from "vite"
import { defineConfig } from "vitest/config"

const conditions = ["@petstore/source", ...defaultServerConditions]

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ["default"],
    sequence: { concurrent: false }
  }
})
