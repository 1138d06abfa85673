/**
 * The feature packages are pure: no I/O, no Node, no platform, SQL or adapter imports, and no
 * dependency besides `effect`, the small pure libraries a feature names (`tldts` for the Public Suffix
 * List in domains, `ipaddr.js` for webhook addresses) and the feature packages below it. What each may
 * import is the table `tooling/structure/features.json`, which dependency-cruiser's rules read too, so
 * the two cannot drift. Effect 4 ships HTTP, SQL, persistence, observability and the other platform
 * modules inside `effect` itself, so the allowed `effect` imports are its core modules only. This test
 * reads the packages' sources and manifests to enforce it (the test itself may use node:fs; the
 * packages may not).
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"

const packagesRoot = fileURLToPath(new URL("../..", import.meta.url))

/** The feature packages and what each may import (architecture rule 1). */
const table = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../../tooling/structure/features.json", import.meta.url)), "utf8")
) as {
  readonly features: Readonly<Record<string, ReadonlyArray<string>>>
  readonly libraries: Readonly<Record<string, ReadonlyArray<string>>>
}

interface FeaturePackage {
  readonly directory: string
  /** What its sources may import besides its own modules and `effect`. */
  readonly allowed: ReadonlyArray<RegExp>
  /** Its dependencies of any kind (peer or not), `effect` included. */
  readonly dependencies: ReadonlyArray<string>
}

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** A feature's public modules; never its test support (`@petstore/kernel/testing`). */
const featureImport = (feature: string) =>
  new RegExp(`^@petstore/${literally(feature)}(/(?!testing(/|$))[A-Za-z0-9]+)?$`)
const libraryImport = (library: string) => new RegExp(`^${literally(library)}(/|$)`)

const featurePackages: ReadonlyArray<FeaturePackage> = Object.entries(table.features).map(
  ([directory, below]) => {
    const libraries = table.libraries[directory] ?? []
    return {
      directory,
      allowed: [...below.map(featureImport), ...libraries.map(libraryImport)],
      dependencies: ["effect", ...libraries, ...below.map((feature) => `@petstore/${feature}`)]
    }
  }
)

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
  /^acme-client(\/|$)/
]
const alwaysAllowed: ReadonlyArray<RegExp> = [/^\.\.?\//, /^effect(\/|$)/]

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

const violationsOf = (source: string, allowed: ReadonlyArray<RegExp>): ReadonlyArray<string> => [
  ...specifiersOf(source).filter(
    (specifier) =>
      forbidden.some((pattern) => pattern.test(specifier)) ||
      ![...alwaysAllowed, ...allowed].some((pattern) => pattern.test(specifier))
  ),
  ...barrelServicesOf(source)
]

const sourceFilesOf = (sourceRoot: string): ReadonlyArray<string> =>
  readdirSync(sourceRoot, { recursive: true, encoding: "utf8" })
    .filter((file) => /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(file))
    .sort()

describe("purity of the feature packages", () => {
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
      `import { PetId } from "./PetId.js"`,
      `import { StorageError } from "@petstore/kernel"`,
      `import { AccountName } from "@petstore/kernel/Account"`,
      `import { issuesOf } from "@petstore/kernel/testing"`,
      `import { Pet } from "@petstore/catalogue"`
    ].join("\n")
    expect(violationsOf(sample, [featureImport("kernel")])).toStrictEqual([
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
      "tldts",
      "@petstore/kernel/testing",
      "@petstore/catalogue",
      "@electric-sql/pglite",
      "acme-client",
      "http",
      "effect#Path",
      "effect#FileSystem"
    ])
  })

  describe.each(featurePackages)("packages/$directory", ({ allowed, dependencies, directory }) => {
    const packageRoot = join(packagesRoot, directory)
    const sourceRoot = join(packageRoot, "src")
    const sourceFiles = sourceFilesOf(sourceRoot)

    it("has sources to check", () => {
      expect(sourceFiles).toContain("index.ts")
      expect(sourceFiles.length).toBeGreaterThan(1)
    })

    it.each(sourceFiles)("src/%s imports only what the package may", (file) => {
      const source = readFileSync(join(sourceRoot, file), "utf8")
      expect(violationsOf(source, allowed)).toStrictEqual([])
    })

    it(`depends on nothing but ${dependencies.join(", ")}, and on effect as a peer`, () => {
      type Manifest = Readonly<Record<string, Readonly<Record<string, string>> | undefined>>
      const manifest = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as Manifest
      const names = (field: string) => Object.keys(manifest[field] ?? {})
      // A peer, so that an application and every package it uses share one copy of Effect.
      expect(names("peerDependencies")).toContain("effect")
      expect(names("dependencies")).not.toContain("effect")
      for (const field of [
        "dependencies",
        "peerDependencies",
        "optionalDependencies",
        "bundledDependencies"
      ]) {
        expect(
          names(field).filter((name) => !dependencies.includes(name)),
          field
        ).toStrictEqual([])
      }
    })
  })
})
