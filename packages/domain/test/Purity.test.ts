/**
 * packages/domain is pure: no I/O, no Node, no platform, SQL or adapter imports, and no dependency
 * besides `effect` (and `tldts` for the Public Suffix List). Effect 4 ships HTTP, SQL, persistence,
 * observability and the other platform modules inside `effect` itself, so the allowed `effect`
 * imports are its core modules only. This test reads the sources to enforce it (the test itself may
 * use node:fs; the package may not).
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"

const packageRoot = fileURLToPath(new URL("..", import.meta.url))
const sourceRoot = join(packageRoot, "src")

/** Effect 4's modules that do I/O, serve or call over a network, or only belong in tests. */
const impureEffectModules = [
  "unstable",
  "http",
  "http-api",
  "sql",
  "persistence",
  "observability",
  "cli",
  "cluster",
  "rpc",
  "workflow",
  "workers",
  "socket",
  "net",
  "process",
  "ai",
  "devtools",
  "eventlog",
  "reactivity",
  "graphql",
  "testing"
]
/** Core modules of `effect` that are platform services (files, terminal, standard streams). */
const platformServices = ["FileSystem", "Path", "Terminal", "Stdio", "PlatformError"]

const forbidden: ReadonlyArray<RegExp> = [
  /^node:/,
  /^(fs|fs\/promises|http|https|http2|net|tls|dns|child_process|worker_threads|os|path|crypto)$/,
  /^pg(\/|$)/,
  /^@effect\//,
  new RegExp(`^effect/(${impureEffectModules.join("|")})(/|$)`),
  new RegExp(`^effect/(${platformServices.join("|")})$`),
  /^@electric-sql\//,
  /^acme-client(\/|$)/,
  /^@petstore\//
]
const allowed: ReadonlyArray<RegExp> = [/^\.\.?\//, /^effect(\/|$)/, /^tldts(\/|$)/]
const allowedDependencies: ReadonlySet<string> = new Set(["effect", "tldts"])

/** Every module specifier of a source text: static imports and re-exports, side-effect imports, import(), require(). */
const specifiersOf = (source: string): ReadonlyArray<string> => {
  const patterns = [
    /\b(?:import|export)\b[^'"`;]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g
  ]
  return patterns.flatMap((pattern) => Array.from(source.matchAll(pattern), (match) => match[1] ?? ""))
}

/** The platform services named in imports from the `effect` barrel, as `effect#FileSystem`. */
const barrelServicesOf = (source: string): ReadonlyArray<string> =>
  Array.from(
    source.matchAll(/\b(?:import|export)\b\s*(?:type\s*)?\{([^}]*)\}\s*from\s*["']effect["']/g),
    (match) =>
      (match[1] ?? "")
        .split(",")
        .map(
          (name) =>
            name
              .trim()
              .replace(/^type\s+/, "")
              .split(/\s+as\s+/)[0] ?? ""
        )
        .filter((name) => platformServices.includes(name))
        .map((name) => `effect#${name}`)
  ).flat()

const violationsOf = (source: string): ReadonlyArray<string> => [
  ...specifiersOf(source).filter(
    (specifier) =>
      forbidden.some((pattern) => pattern.test(specifier)) ||
      !allowed.some((pattern) => pattern.test(specifier))
  ),
  ...barrelServicesOf(source)
]

const sourceFiles = readdirSync(sourceRoot, { recursive: true, encoding: "utf8" })
  .filter((file) => /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(file))
  .sort()

describe("purity of packages/domain", () => {
  it("the import scanner recognises the forms it must police", () => {
    const sample = [
      `import { readFileSync } from "node:fs"`,
      `import type { Pool } from "pg"`,
      `import {\n  HttpClient\n} from "@effect/platform"`,
      `export * from "@effect/sql-pg"`,
      `import "@electric-sql/pglite"`,
      `const acme = await import("acme-client")`,
      `const http = require("http")`,
      `export { x } from "@petstore/store-memory"`,
      `import fs from "fs"`,
      `import { lodash } from "lodash"`,
      `import { HttpRouter } from "effect/http"`,
      `import { HttpApiBuilder } from "effect/http-api"`,
      `import * as SqlClient from "effect/sql/SqlClient"`,
      `import { RateLimiter } from "effect/persistence"`,
      `import { OtlpTracer } from "effect/observability"`,
      `import { TestClock } from "effect/testing"`,
      `import * as Http from "effect/unstable/http"`,
      `import { NodeHttpServer } from "@effect/platform-node"`,
      `import * as FileSystem from "effect/FileSystem"`,
      `import { Effect, type Path, FileSystem as Files } from "effect"`,
      `import { Schema } from "effect"`,
      `import * as Arr from "effect/Array"`,
      `import { Hex } from "effect/encoding"`,
      `import { parse } from "tldts"`,
      `import { PetId } from "./PetId.js"`
    ].join("\n")
    expect(violationsOf(sample)).toStrictEqual([
      "node:fs",
      "pg",
      "@effect/platform",
      "@effect/sql-pg",
      "@petstore/store-memory",
      "fs",
      "lodash",
      "effect/http",
      "effect/http-api",
      "effect/sql/SqlClient",
      "effect/persistence",
      "effect/observability",
      "effect/testing",
      "effect/unstable/http",
      "@effect/platform-node",
      "effect/FileSystem",
      "@electric-sql/pglite",
      "acme-client",
      "http",
      "effect#Path",
      "effect#FileSystem"
    ])
  })

  it("has sources to check", () => {
    expect(sourceFiles).toContain("index.ts")
    expect(sourceFiles.length).toBeGreaterThan(5)
  })

  it.each(sourceFiles)("src/%s imports only effect, tldts and its own modules", (file) => {
    const source = readFileSync(join(sourceRoot, file), "utf8")
    expect(violationsOf(source)).toStrictEqual([])
  })

  it("depends on nothing but effect (and tldts)", () => {
    type Manifest = Readonly<Record<string, Readonly<Record<string, string>> | undefined>>
    const manifest = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as Manifest
    const names = (field: string) => Object.keys(manifest[field] ?? {})
    expect(names("dependencies")).toContain("effect")
    for (const field of ["dependencies", "peerDependencies", "optionalDependencies", "bundledDependencies"]) {
      expect(
        names(field).filter((name) => !allowedDependencies.has(name)),
        field
      ).toStrictEqual([])
    }
  })
})
