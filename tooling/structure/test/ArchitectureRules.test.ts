/**
 * The dependency rules `pnpm lint` checks (`.dependency-cruiser.cjs` at the repository's root) report
 * each wrong import as breaking the rule it breaks, and nothing that the architecture allows. The
 * imports are tried in a workspace laid out like this one (packages of the same names, manifests that
 * declare what they import, pnpm's links), with the repository's own configuration. The feature
 * packages are those of the table the configuration reads (`tooling/structure/features.json`), each
 * importing everything the table allows it; the wrong imports below hold the table to the architecture
 * (one way: a feature never imports one beside or above it).
 */
import { realpathSync } from "node:fs"
import { isBuiltin } from "node:module"
import { join, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { cruise, type ICruiseResult } from "dependency-cruiser"
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readFeatureTable } from "../src/FeatureTable.ts"
import {
  type FixturePackage,
  type FixtureWorkspace,
  writeFixtureWorkspace
} from "./support/FixtureWorkspace.js"

const repositoryRoot = fileURLToPath(new URL("../../..", import.meta.url))

/** The npm packages the fixture's manifests declare: the copies this repository installed. */
const installed = {
  effect: realpathSync(join(repositoryRoot, "packages/http/node_modules/effect")),
  tldts: realpathSync(join(repositoryRoot, "packages/domains/node_modules/tldts")),
  "ipaddr.js": realpathSync(join(repositoryRoot, "packages/webhooks/node_modules/ipaddr.js")),
  "@effect/platform-node": realpathSync(
    join(repositoryRoot, "packages/http/node_modules/@effect/platform-node")
  ),
  "fast-check": realpathSync(join(repositoryRoot, "packages/http/node_modules/fast-check"))
}

const index = (...imports: ReadonlyArray<string>) => ({
  "src/index.ts": `${imports.join("\n")}\nexport const ready = true\n`
})

interface Case {
  /** A source file of the fixture, and what it imports. */
  readonly file: string
  readonly imports: ReadonlyArray<string>
  /** The rules the file breaks, by name. */
  readonly breaks: ReadonlyArray<string>
}

/** The rule of architecture rule 1 that says what a feature package may import. */
const importsOfFeature = (name: string) => `${name}-imports-only-the-features-below-it`

const wrongImports: ReadonlyArray<Case> = [
  { file: "packages/kernel/src/ReadsFiles.ts", imports: [`import "node:fs"`], breaks: ["feature-no-node"] },
  { file: "packages/catalogue/src/ReadsFiles.ts", imports: [`import "fs"`], breaks: ["feature-no-node"] },
  {
    file: "packages/catalogue/src/ServesHttp.ts",
    imports: [`import * as HttpRouter from "effect/http/HttpRouter"`],
    breaks: ["feature-no-effect-io"]
  },
  {
    file: "packages/custom-domains/src/UsesFileSystem.ts",
    imports: [`import * as FileSystem from "effect/FileSystem"`],
    breaks: ["feature-no-effect-io"]
  },
  {
    file: "packages/webhooks/src/QueriesSql.ts",
    imports: [`import type { SqlClient } from "effect/sql/SqlClient"`],
    breaks: ["feature-no-effect-io"]
  },
  // Every feature imports only the features below it: one import above or beside it each.
  {
    file: "packages/kernel/src/KnowsTheCatalogue.ts",
    imports: [`import "@petstore/catalogue"`],
    breaks: [importsOfFeature("kernel")]
  },
  {
    file: "packages/catalogue/src/KnowsProjects.ts",
    imports: [`import "@petstore/projects"`],
    breaks: [importsOfFeature("catalogue")]
  },
  {
    file: "packages/projects/src/KnowsDomains.ts",
    imports: [`import "@petstore/domains"`],
    breaks: [importsOfFeature("projects")]
  },
  {
    file: "packages/domains/src/KnowsOwnership.ts",
    imports: [`import "@petstore/ownership"`],
    breaks: [importsOfFeature("domains")]
  },
  {
    file: "packages/ownership/src/KnowsCertificates.ts",
    imports: [`import "@petstore/certificates"`],
    breaks: [importsOfFeature("ownership")]
  },
  {
    file: "packages/certificates/src/KnowsOwnership.ts",
    imports: [`import "@petstore/ownership"`],
    breaks: [importsOfFeature("certificates")]
  },
  {
    file: "packages/events/src/KnowsWebhooks.ts",
    imports: [`import "@petstore/webhooks"`],
    breaks: [importsOfFeature("events")]
  },
  {
    file: "packages/serving/src/KnowsCustomDomains.ts",
    imports: [`import "@petstore/custom-domains"`],
    breaks: [importsOfFeature("serving")]
  },
  {
    file: "packages/webhooks/src/KnowsOwnership.ts",
    imports: [`import "@petstore/ownership"`],
    breaks: [importsOfFeature("webhooks")]
  },
  {
    file: "packages/custom-domains/src/KnowsTheCatalogue.ts",
    imports: [`import "@petstore/catalogue"`],
    breaks: [importsOfFeature("custom-domains")]
  },
  // A library is another feature's, not every feature's.
  {
    file: "packages/catalogue/src/UsesTldts.ts",
    imports: [`import { parse } from "tldts"`],
    breaks: [importsOfFeature("catalogue")]
  },
  {
    file: "packages/catalogue/src/UsesAnAdapter.ts",
    imports: [`import "@petstore/store-memory"`],
    breaks: [importsOfFeature("catalogue")]
  },
  {
    file: "packages/ownership/src/UsesTestSupport.ts",
    imports: [`import "@petstore/kernel/testing"`],
    breaks: [importsOfFeature("ownership"), "production-not-to-test-support"]
  },
  {
    file: "packages/serving/src/UsesTestSupport.ts",
    imports: [`import "@petstore/domains/testing"`],
    breaks: [importsOfFeature("serving"), "production-not-to-test-support"]
  },
  {
    file: "packages/domains/src/UsesItsTestSupport.ts",
    imports: [`import "./testing/index.js"`],
    breaks: ["production-not-to-test-support"]
  },
  {
    file: "packages/api/src/ServesHttp.ts",
    imports: [`import * as HttpRouter from "effect/http/HttpRouter"`],
    breaks: ["api-imports-only-the-contract"]
  },
  {
    file: "packages/api/src/QueriesSql.ts",
    imports: [`import * as SqlClient from "effect/sql/SqlClient"`],
    breaks: ["api-imports-only-the-contract"]
  },
  {
    file: "packages/api/src/ReadsFiles.ts",
    imports: [`import "node:fs"`],
    breaks: ["api-imports-only-the-contract"]
  },
  {
    file: "packages/api/src/RunsOnNode.ts",
    imports: [`import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"`],
    breaks: ["api-imports-only-the-contract"]
  },
  {
    file: "packages/api/src/UsesAnAdapter.ts",
    imports: [`import "@petstore/store-memory"`],
    breaks: ["api-imports-only-the-contract"]
  },
  {
    file: "packages/api/src/RunsTheJobs.ts",
    imports: [`import "@petstore/jobs"`],
    breaks: ["api-imports-only-the-contract"]
  },
  {
    file: "packages/api/src/UsesTestSupport.ts",
    imports: [`import "@petstore/domains/testing"`],
    breaks: ["api-imports-only-the-contract", "production-not-to-test-support"]
  },
  {
    file: "packages/api/src/ReadsTheServerRequest.ts",
    imports: [`import { HttpServerRequest } from "effect/http/HttpServerRequest"`],
    breaks: ["api-names-the-server-request-as-a-type-only"]
  },
  {
    file: "packages/http/src/UsesTheEdge.ts",
    imports: [`import "@petstore/edge"`],
    breaks: ["adapter-not-to-adapter"]
  },
  {
    file: "packages/store-memory/src/UsesTheContract.ts",
    imports: [`import "@petstore/api"`],
    breaks: ["only-http-adapters-import-the-contract"]
  },
  {
    file: "packages/node-listener/src/KnowsTheKernel.ts",
    imports: [`import "@petstore/kernel"`],
    breaks: ["infrastructure-knows-no-feature"]
  },
  {
    file: "packages/jobs/src/UsesAnAdapter.ts",
    imports: [`import "@petstore/store-memory"`],
    breaks: ["jobs-imports-only-features-and-effect"]
  },
  {
    file: "packages/jobs/src/ReadsTheHost.ts",
    imports: [`import { hostname } from "node:os"`],
    breaks: ["jobs-imports-only-features-and-effect"]
  },
  {
    file: "packages/store-memory/src/ReadsConfiguration.ts",
    imports: [`import "@petstore/app-config"`],
    breaks: ["packages-not-to-apps"]
  },
  {
    file: "apps/api/src/RunsTheWorker.ts",
    imports: [`import "@petstore/worker-app"`],
    breaks: ["app-not-to-app"]
  },
  {
    file: "apps/config/src/KnowsTheWorker.ts",
    imports: [`import "@petstore/worker-app"`],
    breaks: ["config-imports-no-app"]
  },
  {
    file: "packages/edge/src/UsesItsTestSupport.ts",
    imports: [`import "../test/support/index.js"`],
    breaks: ["production-not-to-test-support"]
  },
  // The cycle is reported once, from the module where the cruise met it first.
  { file: "packages/store-memory/src/Chicken.ts", imports: [`import "./Egg.js"`], breaks: ["no-circular"] },
  {
    file: "packages/http/src/UsesAnUndeclaredPackage.ts",
    imports: [`import "@petstore/store-memory"`],
    breaks: ["not-to-unresolvable"]
  },
  {
    file: "packages/http/src/UsesTheRootsPackage.ts",
    imports: [`import fc from "fast-check"`],
    breaks: ["no-non-package-json"]
  },
  {
    file: "packages/http/src/ServesOnNode.ts",
    imports: [`import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"`],
    breaks: ["production-not-to-dev-dependency"]
  }
]

/** Files that import only what the architecture allows (the packages' index files are more). */
const rightImports: ReadonlyArray<Case> = [
  {
    file: "packages/http/src/NamesNodeTypes.ts",
    imports: [`import type { HttpServer } from "@effect/platform-node/NodeHttpServer"`],
    breaks: []
  },
  {
    file: "packages/store-memory/src/StoresInMemory.ts",
    imports: [
      `import { Ref } from "effect"`,
      `import * as RateLimiter from "effect/persistence/RateLimiter"`
    ],
    breaks: []
  },
  {
    file: "packages/domains/src/ParsesNames.ts",
    imports: [`import { parse } from "tldts"`, `import * as Encoding from "effect/encoding"`],
    breaks: []
  },
  {
    file: "packages/webhooks/src/ChecksAddresses.ts",
    imports: [`import ipaddr from "ipaddr.js"`],
    breaks: []
  },
  {
    file: "packages/store-memory/src/StoresWebhooks.ts",
    imports: [`import "@petstore/webhooks"`],
    breaks: []
  },
  {
    file: "apps/worker/src/ReadsConfiguration.ts",
    imports: [`import "@petstore/app-config"`],
    breaks: []
  }
]

const cases = [...wrongImports, ...rightImports]

/**
 * The feature packages of the table the configuration reads (`tooling/structure/features.json`): each
 * package's index imports effect's core, its libraries and every feature it may import, and its
 * manifest declares them and the packages its cases below import.
 */
const table = readFeatureTable(repositoryRoot)

/** The npm or workspace package an import specifier names (`@petstore/kernel` of `@petstore/kernel/testing`). */
const packageOf = (specifier: string): string | undefined =>
  /^(\.|effect(\/|$))/.test(specifier) || isBuiltin(specifier)
    ? undefined
    : specifier
        .split("/")
        .slice(0, specifier.startsWith("@") ? 2 : 1)
        .join("/")

const specifiersOf = (imports: ReadonlyArray<string>): ReadonlyArray<string> =>
  imports.flatMap((line) => Array.from(line.matchAll(/"([^"]+)"/g), (match) => match[1] ?? ""))

const feature = (name: string): FixturePackage => {
  const below = (table.features[name] ?? []).map((feature) => `@petstore/${feature}`)
  const libraries = table.libraries[name] ?? []
  const importedByCases = cases
    .filter(({ file }) => file.startsWith(`packages/${name}/src/`))
    .flatMap(({ imports }) => specifiersOf(imports).flatMap((specifier) => packageOf(specifier) ?? []))
    .filter((imported) => !libraries.includes(imported))
  return {
    name: `@petstore/${name}`,
    peerDependencies: ["effect", ...libraries],
    dependencies: [...new Set([...below, ...importedByCases])],
    files: index(
      `import { Schema } from "effect"`,
      ...libraries.map((library) => `import "${library}"`),
      ...below.map((feature) => `import "${feature}"`)
    )
  }
}

const features = Object.fromEntries(
  Object.keys(table.features).map((name) => [`packages/${name}`, feature(name)])
)

/**
 * The workspace: each package declares what its sources below import (as a developer adding the
 * import would), so that what breaks a rule is the import, not a missing link.
 */
const packages: Record<string, FixturePackage> = {
  ".": { name: "fixture", devDependencies: ["fast-check"] },
  ...features,
  "packages/kernel": {
    ...features["packages/kernel"],
    name: "@petstore/kernel",
    subpaths: { "./testing": "src/testing/index.ts" },
    files: {
      ...index(`import { Schema } from "effect"`, `import * as Encoding from "effect/encoding"`),
      "src/testing/index.ts": `import { Schema } from "effect"\nexport const issues = Schema.String\n`
    }
  },
  "packages/domains": {
    ...features["packages/domains"],
    name: "@petstore/domains",
    subpaths: { "./testing": "src/testing/index.ts" },
    files: {
      ...features["packages/domains"]?.files,
      // Published test support may import its package and the features below it.
      "src/testing/index.ts": [
        `import "@petstore/kernel"`,
        `import "@petstore/projects"`,
        `import { ready } from "../index.js"`,
        `export const sample = ready`,
        ""
      ].join("\n")
    }
  },
  "packages/custom-domains": {
    ...features["packages/custom-domains"],
    name: "@petstore/custom-domains",
    devDependencies: ["@petstore/events"],
    files: {
      ...features["packages/custom-domains"]?.files,
      // A test may import any feature and any feature's test support.
      "test/Checks.test.ts": [
        `import "@petstore/events"`,
        `import "@petstore/domains/testing"`,
        `import "@petstore/kernel/testing"`,
        ""
      ].join("\n")
    }
  },
  "packages/api": {
    name: "@petstore/api",
    dependencies: [
      "effect",
      "@effect/platform-node",
      "@petstore/kernel",
      "@petstore/catalogue",
      "@petstore/domains",
      "@petstore/webhooks",
      "@petstore/custom-domains",
      "@petstore/jobs",
      "@petstore/store-memory"
    ],
    files: index(
      `import { Schema } from "effect"`,
      `import * as HttpApi from "effect/http-api/HttpApi"`,
      `import * as HttpClient from "effect/http/HttpClient"`,
      `import type { HttpServerRequest } from "effect/http/HttpServerRequest"`,
      `import "@petstore/kernel"`,
      `import "@petstore/catalogue"`,
      `import "@petstore/domains"`,
      `import "@petstore/webhooks"`,
      `import "@petstore/custom-domains"`
    )
  },
  "packages/http": {
    name: "@petstore/http",
    dependencies: [
      "effect",
      "@petstore/api",
      "@petstore/kernel",
      "@petstore/edge",
      "@petstore/node-listener",
      "@petstore/thrown"
    ],
    devDependencies: ["@effect/platform-node"],
    files: {
      ...index(
        `import { createServer } from "node:http"`,
        `import * as HttpRouter from "effect/http/HttpRouter"`,
        `import "@petstore/api"`,
        `import "@petstore/kernel"`,
        `import "@petstore/node-listener"`,
        `import "@petstore/thrown"`
      ),
      "test/Edge.test.ts": `import "@petstore/edge"\nimport "@petstore/edge/testing"\nimport "@effect/platform-node/NodeHttpServer"\n`
    }
  },
  "packages/api-key-admin-client": {
    name: "@petstore/api-key-admin-client",
    dependencies: ["effect", "@petstore/api", "@petstore/kernel"],
    files: index(`import * as HttpClient from "effect/http/HttpClient"`, `import "@petstore/api"`)
  },
  "packages/edge": {
    name: "@petstore/edge",
    dependencies: ["effect", "@petstore/serving", "@petstore/node-listener"],
    subpaths: { "./testing": "test/support/index.ts" },
    files: {
      ...index(`import "@petstore/serving"`, `import "@petstore/node-listener"`),
      "test/support/index.ts": `export const client = true\n`
    }
  },
  "packages/store-memory": {
    name: "@petstore/store-memory",
    dependencies: [
      "effect",
      "@petstore/kernel",
      "@petstore/webhooks",
      "@petstore/api",
      "@petstore/app-config"
    ],
    files: {
      ...index(`import "@petstore/kernel"`, `import "@petstore/webhooks"`),
      "src/Egg.ts": `import "./Chicken.js"\nexport {}\n`
    }
  },
  "packages/jobs": {
    name: "@petstore/jobs",
    dependencies: [
      "effect",
      "@petstore/kernel",
      "@petstore/events",
      "@petstore/webhooks",
      "@petstore/custom-domains",
      "@petstore/store-memory"
    ],
    files: index(
      `import { Effect, Schedule } from "effect"`,
      `import "@petstore/kernel"`,
      `import "@petstore/events"`,
      `import "@petstore/webhooks"`,
      `import "@petstore/custom-domains"`
    )
  },
  "packages/node-listener": {
    name: "@petstore/node-listener",
    dependencies: ["effect", "@petstore/kernel"],
    files: index(`import { createServer } from "node:http"`, `import { Effect } from "effect"`)
  },
  "packages/thrown": { name: "@petstore/thrown", files: index() },
  "apps/config": {
    name: "@petstore/app-config",
    dependencies: ["effect", "@petstore/kernel", "@petstore/worker-app"],
    files: index(`import { Config } from "effect"`, `import "@petstore/kernel"`)
  },
  "apps/api": {
    name: "@petstore/api-app",
    dependencies: [
      "effect",
      "@effect/platform-node",
      "@petstore/app-config",
      "@petstore/worker-app",
      "@petstore/http",
      "@petstore/edge",
      "@petstore/jobs",
      "@petstore/store-memory",
      "@petstore/node-listener",
      "@petstore/kernel"
    ],
    files: {
      "src/main.ts": [
        `import * as NodeRuntime from "@effect/platform-node/NodeRuntime"`,
        `import "@petstore/app-config"`,
        `import "@petstore/http"`,
        `import "@petstore/edge"`,
        `import "@petstore/jobs"`,
        `import "@petstore/store-memory"`,
        `import "@petstore/node-listener"`,
        `import "@petstore/kernel"`,
        ""
      ].join("\n")
    }
  },
  "apps/worker": {
    name: "@petstore/worker-app",
    dependencies: ["effect", "@petstore/app-config", "@petstore/jobs", "@petstore/store-memory"],
    files: index(
      `import "@petstore/app-config"`,
      `import "@petstore/jobs"`,
      `import "@petstore/store-memory"`
    )
  }
}

/** The fixture's packages with each case's file added to the package it is in. */
const withCases = (base: Record<string, FixturePackage>): Record<string, FixturePackage> =>
  Object.fromEntries(
    Object.entries(base).map(([directory, fixture]) => {
      const own = cases.filter(({ file }) => directory !== "." && file.startsWith(`${directory}/`))
      const files = Object.fromEntries(
        own.map(({ file, imports }) => [
          file.slice(directory.length + 1),
          `${imports.join("\n")}\nexport {}\n`
        ])
      )
      return [directory, { ...fixture, files: { ...fixture.files, ...files } }]
    })
  )

describe("the architecture's dependency rules", () => {
  let workspace: FixtureWorkspace
  let result: ICruiseResult
  let ruleNames: ReadonlyArray<string>

  beforeAll(async () => {
    workspace = writeFixtureWorkspace(withCases(packages), installed)
    const options = await extractDepcruiseOptions(join(repositoryRoot, ".dependency-cruiser.cjs"))
    ruleNames = (options.ruleSet?.forbidden ?? []).map(({ name }) => name ?? "")
    const reported = await cruise(["packages", "apps"], { ...options, baseDir: workspace.root })
    if (typeof reported.output === "string") throw new Error("dependency-cruiser answered text, not a result")
    result = reported.output
  })

  afterAll(() => workspace?.remove())

  const brokenBy = (file: string): ReadonlyArray<string> =>
    [
      ...new Set(
        result.summary.violations
          .filter(({ from }) => from.split(sep).join("/") === file)
          .map(({ rule }) => rule.name)
      )
    ].sort()

  it("every rule has a case that breaks it", () => {
    const broken = new Set(wrongImports.flatMap(({ breaks }) => breaks))
    expect(ruleNames.filter((name) => !broken.has(name))).toStrictEqual([])
  })

  it.each(wrongImports.map((wrong) => ({ ...wrong, rules: wrong.breaks.join(", ") })))(
    "$file breaks $rules",
    ({ breaks, file }) => {
      expect(brokenBy(file)).toStrictEqual([...breaks].sort())
    }
  )

  it.each(rightImports)("$file breaks nothing", ({ file }) => {
    expect(brokenBy(file)).toStrictEqual([])
  })

  it("the packages' index files, the app and the tests break nothing", () => {
    const broken = result.summary.violations
      .map(({ from }) => from.split(sep).join("/"))
      .filter((from) => !cases.some(({ file }) => file === from))
    expect(broken).toStrictEqual([])
    const cruised = result.modules.map(({ source }) => source.split(sep).join("/"))
    expect(cruised).toEqual(
      expect.arrayContaining([
        ...Object.keys(table.features).map((feature) => `packages/${feature}/src/index.ts`),
        "packages/domains/src/testing/index.ts",
        "packages/custom-domains/test/Checks.test.ts",
        "packages/http/test/Edge.test.ts",
        "apps/worker/src/index.ts"
      ])
    )
  })
})
