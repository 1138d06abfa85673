/**
 * The publishable packages as another team gets them: each feature package and the HTTP contract
 * packed (`pnpm pack`), installed from the tarballs by npm into a project outside the workspace (no
 * workspace links; peers from the registry), compiled strict with NodeNext against their published
 * declarations (never their sources), and run: every entry point loads from ESM, and from CommonJS
 * where Node can require ES modules, with the exports the workspace's build has; every example each
 * package ships compiles and prints what it says it prints. Without npm or the registry it fails.
 */
import { lstatSync, rmSync } from "node:fs"
import { basename, dirname, join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { buildWithDependencies } from "@petstore/testing/build"
import { node, tsc } from "../src/Commands.js"
import { type ConsumerProject, makeConsumerProject } from "../src/ConsumerProject.js"
import { examplesOf } from "../src/Documentation.js"
import {
  entryPointsOf,
  featurePackageNames,
  type Manifest,
  publishablePackages,
  readJson,
  repositoryRoot
} from "../src/Workspace.js"

const packages = publishablePackages()
const entryPoints = packages.flatMap((found) =>
  entryPointsOf(found.manifest).map((entry) => ({ ...entry, file: join(found.directory, entry.javascript) }))
)
const examples = packages.flatMap((found) =>
  examplesOf(found.directory).map((example) => ({
    ...example,
    packageName: found.manifest.name,
    /** Under the consumer's `src`. */
    path: join("examples", basename(found.directory), basename(example.path))
  }))
)

/** A module that loads every entry point and prints the names each exports at run time. */
const entryPointsModule = (load: (specifier: string, index: number) => string) =>
  [
    ...entryPoints.map((entry, index) => load(entry.specifier, index)),
    "",
    "const entryPoints: Readonly<Record<string, object>> = {",
    ...entryPoints.map((entry, index) => `  "${entry.specifier}": entry${index},`),
    "}",
    "const names = Object.entries(entryPoints).map(([specifier, module]) => [specifier, Object.keys(module).sort()])",
    "console.log(JSON.stringify(Object.fromEntries(names)))",
    ""
  ].join("\n")

/** The same, of the workspace's own build. */
const workspaceExports = async (): Promise<unknown> => {
  const script = [
    "const names = {}",
    ...entryPoints.map(
      (entry) =>
        `names[${JSON.stringify(entry.specifier)}] = Object.keys(await import(${JSON.stringify(pathToFileURL(entry.file).href)})).sort()`
    ),
    "console.log(JSON.stringify(names))"
  ].join("\n")
  return JSON.parse((await node(["--input-type=module", "-e", script], repositoryRoot)).stdout)
}

/** Printed text as compared with an `// Output:` comment: no trailing spaces, no final newline. */
const printed = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .trimEnd()

let consumer: ConsumerProject
let compiledFiles: ReadonlyArray<string>

beforeAll(async () => {
  if (process.env.PETSTORE_PREBUILT !== "1") {
    for (const found of packages) await buildWithDependencies(found.manifest.name)
  }
  consumer = await makeConsumerProject(
    packages,
    new Map([
      [
        "entry-points.ts",
        entryPointsModule((specifier, index) => `import * as entry${index} from "${specifier}"`)
      ],
      // CommonJS, as TypeScript writes it: `import x = require(…)` compiles to `require(…)`.
      [
        "entry-points.cts",
        entryPointsModule((specifier, index) => `import entry${index} = require("${specifier}")`)
      ],
      ...examples.map((example) => [example.path, example.source] as const)
    ])
  )
  compiledFiles = (await tsc(["-p", ".", "--listFiles"], consumer.directory)).stdout.split("\n")
}, 600_000)

afterAll(() => {
  if (consumer !== undefined) rmSync(dirname(consumer.directory), { recursive: true, force: true })
})

describe("the publishable packages, packed and installed by npm outside the workspace", () => {
  it("are the feature packages and the HTTP contract", () => {
    expect(packages.map((found) => found.manifest.name).sort()).toStrictEqual(
      [...featurePackageNames, "@petstore/api"].sort()
    )
  })

  it("are installed from their tarballs with registry ranges and effect a peer; the feature packages with nothing of the monorepo", () => {
    for (const found of packages) {
      const name = found.manifest.name
      const folder = join(consumer.directory, "node_modules", name)
      expect(lstatSync(folder).isSymbolicLink(), `${name} is a link`).toBe(false)
      const installed = readJson<Manifest & { readonly publishConfig?: unknown }>(
        join(folder, "package.json")
      )
      expect(installed.private, name).toBeUndefined()
      expect(installed.devDependencies, name).toBeUndefined()
      if (featurePackageNames.includes(name)) {
        // publishConfig.exports replaced the monorepo's exports, and went with it.
        expect(installed.publishConfig, name).toBeUndefined()
        expect(JSON.stringify(installed.exports), name).not.toContain("@petstore/source")
      }
      const ranges = { ...installed.dependencies, ...installed.peerDependencies }
      for (const [dependency, range] of Object.entries(ranges)) {
        expect(range, `${name} → ${dependency}`).toMatch(/^\^\d+\.\d+\.\d+$/)
      }
      expect(Object.keys(installed.peerDependencies ?? {}), name).toContain("effect")
    }
  })

  it("ship examples: every feature package at least one, each compiled with the consumer's strict tsc", () => {
    for (const name of featurePackageNames) {
      expect(
        examples.filter((example) => example.packageName === name).length,
        `${name} ships no example`
      ).toBeGreaterThan(0)
    }
    for (const example of examples) {
      expect(compiledFiles, example.path).toContain(join(consumer.directory, "src", example.path))
    }
  })

  it("compile strict under NodeNext against their declarations, never their sources", () => {
    const declarations = compiledFiles.filter((file) => /\/node_modules\/@petstore\//.test(file))
    expect(declarations.length).toBeGreaterThan(entryPoints.length)
    expect(declarations.filter((file) => !file.endsWith(".d.ts"))).toStrictEqual([])
  })

  it("load at every entry point from ESM, with the exports of the workspace's build", async () => {
    const { stdout } = await node([join("dist", "entry-points.js")], consumer.directory)
    expect(JSON.parse(stdout)).toStrictEqual(await workspaceExports())
  })

  it("load from CommonJS with require() where Node can require ES modules, and say why not where it cannot", async () => {
    const loading = node([join("dist", "entry-points.cjs")], consumer.directory)
    if (process.features.require_module === true) {
      expect(JSON.parse((await loading).stdout)).toStrictEqual(await workspaceExports())
    } else {
      await expect(loading).rejects.toThrow(/ERR_REQUIRE_ESM/)
    }
  })

  it.each(examples.map((example) => [example.path, example] as const))(
    "run %s, which prints what it says",
    async (_, example) => {
      const { stdout } = await node([join("dist", example.path.replace(/\.ts$/, ".js"))], consumer.directory)
      expect(printed(stdout)).toBe(printed(example.output ?? ""))
    }
  )
})
