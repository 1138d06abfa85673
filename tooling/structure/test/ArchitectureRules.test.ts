/**
 * The dependency rules `pnpm lint` checks (`.dependency-cruiser.cjs` at the repository's root) report
 * each wrong import as breaking the rule it breaks, and nothing that the architecture allows. The
 * imports are tried in a workspace laid out like this one (packages of the same names, manifests that
 * declare what they import, pnpm's links), with the repository's own configuration.
 */
import { realpathSync } from "node:fs"
import { join, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { cruise, type ICruiseResult } from "dependency-cruiser"
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type FixturePackage,
  type FixtureWorkspace,
  writeFixtureWorkspace
} from "./support/FixtureWorkspace.js"

const repositoryRoot = fileURLToPath(new URL("../../..", import.meta.url))

/** The npm packages the fixture's manifests declare: the copies this repository installed. */
const installed = {
  effect: realpathSync(join(repositoryRoot, "packages/http/node_modules/effect")),
  tldts: realpathSync(join(repositoryRoot, "packages/custom-domains/node_modules/tldts")),
  "@effect/platform-node": realpathSync(
    join(repositoryRoot, "packages/http/node_modules/@effect/platform-node")
  ),
  "fast-check": realpathSync(join(repositoryRoot, "packages/http/node_modules/fast-check"))
}

const index = (...imports: ReadonlyArray<string>) => ({
  "src/index.ts": `${imports.join("\n")}\nexport const ready = true\n`
})

/**
 * The workspace: each package declares what its sources below import (as a developer adding the
 * import would), so that what breaks a rule is the import, not a missing link.
 */
const packages: Record<string, FixturePackage> = {
  ".": { name: "fixture", devDependencies: ["fast-check"] },
  "packages/kernel": {
    name: "@petstore/kernel",
    peerDependencies: ["effect"],
    dependencies: ["@petstore/catalogue"],
    subpaths: { "./testing": "src/testing/index.ts" },
    files: {
      ...index(`import { Schema } from "effect"`, `import * as Encoding from "effect/encoding"`),
      "src/testing/index.ts": `import { Schema } from "effect"\nexport const issues = Schema.String\n`
    }
  },
  "packages/catalogue": {
    name: "@petstore/catalogue",
    peerDependencies: ["effect", "tldts"],
    dependencies: ["@petstore/kernel", "@petstore/custom-domains", "@petstore/store-memory"],
    files: index(`import { Schema } from "effect"`, `import { Unauthenticated } from "@petstore/kernel"`)
  },
  "packages/custom-domains": {
    name: "@petstore/custom-domains",
    peerDependencies: ["effect", "tldts"],
    dependencies: ["@petstore/kernel", "@petstore/catalogue"],
    files: index(
      `import { Schema } from "effect"`,
      `import { parse } from "tldts"`,
      `import "@petstore/kernel"`
    )
  },
  "packages/api": {
    name: "@petstore/api",
    dependencies: [
      "effect",
      "@effect/platform-node",
      "@petstore/kernel",
      "@petstore/catalogue",
      "@petstore/custom-domains",
      "@petstore/store-memory"
    ],
    files: index(
      `import { Schema } from "effect"`,
      `import * as HttpApi from "effect/http-api/HttpApi"`,
      `import * as HttpClient from "effect/http/HttpClient"`,
      `import type { HttpServerRequest } from "effect/http/HttpServerRequest"`,
      `import "@petstore/kernel"`,
      `import "@petstore/catalogue"`,
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
  "packages/edge": {
    name: "@petstore/edge",
    dependencies: ["effect", "@petstore/custom-domains", "@petstore/node-listener"],
    subpaths: { "./testing": "test/support/index.ts" },
    files: {
      ...index(`import "@petstore/custom-domains"`, `import "@petstore/node-listener"`),
      "test/support/index.ts": `export const client = true\n`
    }
  },
  "packages/store-memory": {
    name: "@petstore/store-memory",
    dependencies: ["effect", "@petstore/kernel", "@petstore/api", "@petstore/app-config"],
    files: { ...index(`import "@petstore/kernel"`), "src/Egg.ts": `import "./Chicken.js"\nexport {}\n` }
  },
  "packages/node-listener": {
    name: "@petstore/node-listener",
    dependencies: ["effect", "@petstore/kernel"],
    files: index(`import { createServer } from "node:http"`, `import { Effect } from "effect"`)
  },
  "packages/thrown": { name: "@petstore/thrown", files: index() },
  "apps/config": {
    name: "@petstore/app-config",
    dependencies: ["effect"],
    files: index(`import { Config } from "effect"`)
  },
  "apps/api": {
    name: "@petstore/api-app",
    dependencies: [
      "effect",
      "@effect/platform-node",
      "@petstore/app-config",
      "@petstore/http",
      "@petstore/edge",
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
        `import "@petstore/store-memory"`,
        `import "@petstore/node-listener"`,
        `import "@petstore/kernel"`,
        ""
      ].join("\n")
    }
  }
}

interface Case {
  /** A source file of the fixture, and what it imports. */
  readonly file: string
  readonly imports: ReadonlyArray<string>
  /** The rules the file breaks, by name. */
  readonly breaks: ReadonlyArray<string>
}

const wrongImports: ReadonlyArray<Case> = [
  { file: "packages/kernel/src/ReadsFiles.ts", imports: [`import "node:fs"`], breaks: ["domain-no-node"] },
  { file: "packages/catalogue/src/ReadsFiles.ts", imports: [`import "fs"`], breaks: ["domain-no-node"] },
  {
    file: "packages/catalogue/src/ServesHttp.ts",
    imports: [`import * as HttpRouter from "effect/http/HttpRouter"`],
    breaks: ["domain-no-effect-io"]
  },
  {
    file: "packages/custom-domains/src/UsesFileSystem.ts",
    imports: [`import * as FileSystem from "effect/FileSystem"`],
    breaks: ["domain-no-effect-io"]
  },
  {
    file: "packages/custom-domains/src/QueriesSql.ts",
    imports: [`import type { SqlClient } from "effect/sql/SqlClient"`],
    breaks: ["domain-no-effect-io"]
  },
  {
    file: "packages/kernel/src/KnowsTheCatalogue.ts",
    imports: [`import "@petstore/catalogue"`],
    breaks: ["kernel-imports-only-effect"]
  },
  {
    file: "packages/catalogue/src/KnowsCustomDomains.ts",
    imports: [`import "@petstore/custom-domains"`],
    breaks: ["catalogue-imports-only-effect-and-kernel"]
  },
  {
    file: "packages/catalogue/src/UsesTldts.ts",
    imports: [`import { parse } from "tldts"`],
    breaks: ["catalogue-imports-only-effect-and-kernel"]
  },
  {
    file: "packages/catalogue/src/UsesAnAdapter.ts",
    imports: [`import "@petstore/store-memory"`],
    breaks: ["catalogue-imports-only-effect-and-kernel"]
  },
  {
    file: "packages/custom-domains/src/KnowsTheCatalogue.ts",
    imports: [`import "@petstore/catalogue"`],
    breaks: ["custom-domains-imports-only-effect-tldts-ipaddr-and-kernel"]
  },
  {
    file: "packages/custom-domains/src/UsesTestSupport.ts",
    imports: [`import "@petstore/kernel/testing"`],
    breaks: ["custom-domains-imports-only-effect-tldts-ipaddr-and-kernel", "production-not-to-test-support"]
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
    breaks: ["infrastructure-knows-no-domain"]
  },
  {
    file: "packages/store-memory/src/ReadsConfiguration.ts",
    imports: [`import "@petstore/app-config"`],
    breaks: ["packages-not-to-apps"]
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
  }
]

const cases = [...wrongImports, ...rightImports]

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
    expect(result.modules.map(({ source }) => source)).toContain("packages/http/test/Edge.test.ts")
  })
})
