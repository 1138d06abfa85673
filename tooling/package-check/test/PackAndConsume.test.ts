/**
 * The publishable packages as another team gets them: packed, installed from the tarballs into a
 * project outside the workspace, compiled strict with NodeNext against their published declarations
 * (never their sources), and run: every entry point loads with the exports the workspace's build has,
 * and every README example prints what it says it prints.
 */
import { rmSync } from "node:fs"
import { basename, dirname, join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { buildWithDependencies } from "@petstore/testing/build"
import { node, tsc } from "../src/Commands.js"
import { type ConsumerProject, makeConsumerProject } from "../src/ConsumerProject.js"
import { examplesOf } from "../src/Documentation.js"
import {
  entryPointsOf,
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
    /** Under the consumer's `src`. */
    path: join("examples", basename(found.directory), basename(example.path))
  }))
)

/** A module that imports every entry point and prints the names each exports at run time. */
const entryPointsModule = [
  ...entryPoints.map((entry, index) => `import * as entry${index} from "${entry.specifier}"`),
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
      ["entry-points.ts", entryPointsModule],
      ...examples.map((example) => [example.path, example.source] as const)
    ])
  )
  compiledFiles = (await tsc(["-p", ".", "--listFiles"], consumer.directory)).stdout.split("\n")
}, 240_000)

afterAll(() => {
  if (consumer !== undefined) rmSync(dirname(consumer.directory), { recursive: true, force: true })
})

describe("the publishable packages, packed and installed outside the workspace", () => {
  it("are published with ranges a registry understands, and without their test setup", () => {
    expect(packages.map((found) => found.manifest.name).sort()).toStrictEqual([
      "@petstore/api",
      "@petstore/catalogue",
      "@petstore/custom-domains",
      "@petstore/kernel"
    ])
    for (const found of packages) {
      const installed = readJson<Manifest>(
        join(consumer.directory, "node_modules", found.manifest.name, "package.json")
      )
      expect(installed.private, found.manifest.name).toBeUndefined()
      const ranges = { ...installed.dependencies, ...installed.peerDependencies }
      for (const [dependency, range] of Object.entries(ranges)) {
        expect(range, `${found.manifest.name} → ${dependency}`).toMatch(/^\^\d+\.\d+\.\d+$/)
      }
      expect(Object.keys(installed.peerDependencies ?? {}), found.manifest.name).toContain("effect")
    }
  })

  it("compile strict under NodeNext against their declarations, never their sources", () => {
    const declarations = compiledFiles.filter((file) => /\/node_modules\/@petstore\//.test(file))
    expect(declarations.length).toBeGreaterThan(entryPoints.length)
    expect(declarations.filter((file) => !file.endsWith(".d.ts"))).toStrictEqual([])
  })

  it("load at every entry point, with the exports of the workspace's build", async () => {
    const { stdout } = await node([join("dist", "entry-points.js")], consumer.directory)
    expect(JSON.parse(stdout)).toStrictEqual(await workspaceExports())
  })

  it.each(examples.map((example) => [example.path, example] as const))(
    "run %s, which prints what it says",
    async (_, example) => {
      const { stdout } = await node([join("dist", example.path.replace(/\.ts$/, ".js"))], consumer.directory)
      expect(printed(stdout)).toBe(printed(example.output ?? ""))
    }
  )
})
