/**
 * The structure checks `pnpm lint` runs (`src/main.ts`) report each feature package or file over its
 * size, and each environment read outside apps/config, with the rule it breaks; and nothing else. They
 * run on a throwaway workspace laid out like this one.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkWorkspace, describeFailure, describeSuccess, type Report } from "../src/Workspace.ts"

/** `count` lines of source, each with a comment line and a blank line after it. */
const sourceLines = (count: number, name = "value") =>
  Array.from(
    { length: count },
    (_, index) => `export const ${name}${index} = ${index}\n// a comment\n\n`
  ).join("")

const files: Record<string, string> = {
  "tooling/structure/features.json": JSON.stringify({
    features: { kernel: [], catalogue: ["kernel"], domains: ["kernel"] },
    libraries: {}
  }),
  // Within every limit: 300 lines of source in one file (900 lines in all), 1,000 in the package.
  "packages/kernel/src/index.ts": sourceLines(300),
  "packages/kernel/src/More.ts": sourceLines(300),
  "packages/kernel/src/testing/index.ts": sourceLines(200),
  "packages/kernel/src/testing/Rest.ts": sourceLines(200),
  // A file over 300 lines of source, and so the package over 1,000, counting its published test support.
  "packages/catalogue/src/index.ts": sourceLines(301),
  "packages/catalogue/src/More.ts": sourceLines(300),
  "packages/catalogue/src/testing/index.ts": sourceLines(300),
  "packages/catalogue/src/testing/Rest.ts": sourceLines(100),
  // No feature's: no size to keep.
  "packages/http/src/index.ts": [
    sourceLines(1001),
    `import { Config } from "effect"`,
    `export const port = Config.Port("PETSTORE_PORT")`,
    ""
  ].join("\n"),
  "packages/telemetry/src/index.ts": [
    `import { ConfigProvider } from "effect"`,
    `export const otlp = ConfigProvider.fromEnv({ env: { OTEL_TRACES_EXPORTER: "otlp" } })`,
    ""
  ].join("\n"),
  "packages/http/test/Server.test.ts": `export const port = process.env.PORT\n`,
  "apps/api/src/main.ts": `\nexport const home = process.env.HOME\n`,
  "apps/worker/src/main.ts": `import { env } from "node:process"\nexport const user = env.USER\n`,
  "apps/config/src/index.ts": [
    `import { Config } from "effect"`,
    `export const port = Config.Port("PETSTORE_PORT")`,
    `export const home = process.env.HOME`,
    ""
  ].join("\n")
}

describe("the structure checks", () => {
  let root: string
  let report: Report

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "petstore-structure-checks-"))
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, file)), { recursive: true })
      writeFileSync(join(root, file), text)
    }
    // A feature of the table with no sources yet has no size to exceed.
    mkdirSync(join(root, "packages/domains"), { recursive: true })
    report = checkWorkspace(root)
  })

  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it("report each break with its rule, and nothing else", () => {
    expect(report.failures.map(({ rule, where }) => `${where}: ${rule}`)).toStrictEqual([
      "packages/catalogue/src: feature-package-at-most-1000-lines-of-source",
      "packages/catalogue/src/index.ts: feature-file-at-most-300-lines-of-source",
      "packages/http/src/index.ts:3006: environment-read-only-in-apps-config",
      "apps/api/src/main.ts:2: environment-read-only-in-apps-config",
      "apps/worker/src/main.ts:1: environment-read-only-in-apps-config"
    ])
  })

  it("say what they counted, both counts, and what to do", () => {
    const [overPackage, overFile, reads] = report.failures.map(describeFailure)
    expect(overPackage).toBe(
      "packages/catalogue/src: feature-package-at-most-1000-lines-of-source: 1,001 lines of source (non-blank lines that are not comments; 3,003 lines in all), over the 1,000 a feature package may have (architecture rule 1: small enough to read in one sitting). Split it into feature packages a newcomer finds by name, or move what is not this feature's to the package it belongs to; a new package is one line in tooling/structure/features.json."
    )
    expect(overFile).toBe(
      "packages/catalogue/src/index.ts: feature-file-at-most-300-lines-of-source: 301 lines of source (non-blank lines that are not comments; 903 lines in all), over the 300 a file of a feature package may have (architecture rule 1). Split the module by what its parts do, and export the parts from the package's index as before."
    )
    expect(reads).toBe(
      "packages/http/src/index.ts:3006: environment-read-only-in-apps-config: reads the environment (Config.Port); configuration is read only in apps/config/src (architecture rule 4). Read it there with effect's Config, decoded once, and give the value to this code as a parameter or a layer's input."
    )
  })

  it("measure every feature package of the table", () => {
    expect(report.sizes.map(({ feature, source, all }) => ({ feature, source, all }))).toStrictEqual([
      { feature: "kernel", source: 1_000, all: 3_000 },
      { feature: "catalogue", source: 1_001, all: 3_003 },
      { feature: "domains", source: 0, all: 0 }
    ])
    expect(report.searched).toBe(12)
  })

  it("say what they checked when all is well", () => {
    expect(
      describeSuccess({
        ...report,
        failures: [],
        sizes: report.sizes.filter(({ feature }) => feature !== "catalogue")
      })
    ).toBe(
      "✔ structure: 2 feature packages within 1,000 lines of source and files within 300; largest packages/kernel/src, 1,000 lines of source (non-blank lines that are not comments; 3,000 lines in all); largest file packages/kernel/src/More.ts, 300 lines of source (non-blank lines that are not comments; 900 lines in all); no environment read in 12 sources outside apps/config/src"
    )
  })
})
