/**
 * The feature packages' manifests have the shape another team installs from npm: one entry point
 * (the root `index.ts`, which only re-exports), plus `./testing` where a package publishes test
 * support; the monorepo's `@petstore/source` condition dropped from what is published
 * (`publishConfig.exports`, which pnpm applies on pack and publish); `files` that exist; `effect`
 * (and `tldts` where the Public Suffix List decides) as peers; and dependencies only on the feature
 * packages below it and the few libraries allowed, exactly the ones its sources import.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"

const packagesRoot = fileURLToPath(new URL("../..", import.meta.url))

type Dependencies = Readonly<Record<string, string>>

interface Manifest {
  readonly name: string
  readonly version?: string
  readonly private?: boolean
  readonly type?: string
  readonly engines?: Readonly<Record<string, string>>
  readonly files?: ReadonlyArray<string>
  readonly types?: string
  readonly sideEffects?: boolean
  readonly exports: Readonly<Record<string, unknown>>
  readonly publishConfig?: { readonly exports?: Readonly<Record<string, unknown>> }
  readonly dependencies?: Dependencies
  readonly peerDependencies?: Dependencies
  readonly devDependencies?: Dependencies
}

/**
 * Each feature package, with the feature packages it may depend on: the ones below it. Dependencies
 * run one way, so none of these lists names a package whose own list names this one.
 */
const below: Readonly<Record<string, ReadonlyArray<string>>> = {
  kernel: [],
  catalogue: ["kernel"],
  projects: ["kernel"],
  domains: ["kernel", "projects"],
  ownership: ["kernel", "projects", "domains"],
  certificates: ["kernel", "projects", "domains"],
  events: ["kernel", "projects", "domains"],
  serving: ["kernel", "projects", "domains", "ownership", "certificates"],
  webhooks: ["kernel", "projects", "domains", "events"],
  "custom-domains": ["kernel", "projects", "domains", "ownership", "certificates", "serving"]
}

/** The libraries besides `effect` a feature package may use, and how: shared with its users, or its own. */
const libraries: Readonly<Record<string, { readonly peers?: Dependencies; readonly own?: Dependencies }>> = {
  // The Public Suffix List decides what an apex is; its users keep it current.
  domains: { peers: { tldts: "^7.5.5" } },
  // The address ranges a webhook may not reach; nobody needs to share it.
  webhooks: { own: { "ipaddr.js": "^2.5.0" } }
}

/** Packages that publish test support, from `src/testing`. */
const withTestSupport = ["kernel", "domains"]

const entry = (source: string) => ({
  "@petstore/source": `./src/${source}.ts`,
  types: `./dist/${source}.d.ts`,
  default: `./dist/${source}.js`
})
const published = (source: string) => ({ types: `./dist/${source}.d.ts`, default: `./dist/${source}.js` })

const read = (path: string) => readFileSync(path, "utf8")

/** The bare specifiers a package's sources import (`@petstore/kernel`, `effect/encoding`, `tldts`). */
const importsOf = (directory: string): ReadonlySet<string> => {
  const files = (folder: string): ReadonlyArray<string> =>
    readdirSync(folder, { withFileTypes: true }).flatMap((found) =>
      found.isDirectory()
        ? files(join(folder, found.name))
        : found.name.endsWith(".ts")
          ? [join(folder, found.name)]
          : []
    )
  return new Set(
    files(join(directory, "src")).flatMap((file) =>
      [...read(file).matchAll(/^\s*(?:import|export)\b[^"]*?\bfrom\s+"([^".][^"]*)"/gm)].map(
        (match) => match[1] ?? ""
      )
    )
  )
}

/** `@petstore/kernel` of `@petstore/kernel/testing`, `effect` of `effect/encoding`. */
const packageOf = (specifier: string) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/")

describe.each(Object.keys(below))("packages/%s/package.json", (directory) => {
  const packageRoot = join(packagesRoot, directory)
  const manifest = JSON.parse(read(join(packageRoot, "package.json"))) as Manifest
  const sources = ["index", ...(withTestSupport.includes(directory) ? ["testing/index"] : [])]
  const subpathOf = (source: string) => (source === "index" ? "." : `./${source.replace(/\/index$/, "")}`)

  it("is @petstore/<directory>, published, ESM with its declarations, for Node 20.12 or later", () => {
    expect(manifest.name).toBe(`@petstore/${directory}`)
    expect(manifest.private).toBeUndefined()
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/)
    expect(manifest.type).toBe("module")
    expect(manifest.engines).toStrictEqual({ node: ">=20.12" })
    expect(manifest.types).toBe("./dist/index.d.ts")
    expect(manifest.sideEffects).toBe(false)
  })

  it("publishes files that exist: its build, sources, examples and README (a changelog once one is written)", () => {
    const build = JSON.parse(read(join(packageRoot, "tsconfig.build.json"))) as {
      readonly compilerOptions: { readonly outDir: string }
    }
    expect(build.compilerOptions.outDir).toBe("dist")
    expect(manifest.files?.slice(0, 4)).toStrictEqual(["dist", "src", "examples", "README.md"])
    for (const file of manifest.files ?? []) {
      if (file !== "dist") expect(existsSync(join(packageRoot, file)), file).toBe(true)
    }
    expect(manifest.files?.includes("CHANGELOG.md")).toBe(existsSync(join(packageRoot, "CHANGELOG.md")))
    // The README links its examples, so they ship, and each is a TypeScript file of its own.
    expect(
      readdirSync(join(packageRoot, "examples")).filter((file) => file.endsWith(".ts")).length
    ).toBeGreaterThan(0)
  })

  it("exports its root (and its test support) only, from the sources in the monorepo and dist otherwise", () => {
    expect(Object.keys(manifest.exports)).toStrictEqual([...sources.map(subpathOf), "./package.json"])
    for (const source of sources)
      expect(manifest.exports[subpathOf(source)], source).toStrictEqual(entry(source))
    expect(manifest.exports["./package.json"]).toBe("./package.json")
    expect(existsSync(join(packageRoot, "src", "testing", "index.ts"))).toBe(
      withTestSupport.includes(directory)
    )
  })

  it("publishes the same entry points without the monorepo's @petstore/source condition", () => {
    expect(manifest.publishConfig).toStrictEqual({
      exports: {
        ...Object.fromEntries(sources.map((source) => [subpathOf(source), published(source)])),
        "./package.json": "./package.json"
      }
    })
  })

  it("has effect (and the libraries its users share) as peers, also installed for its own tests", () => {
    const peers = { effect: "^4.1.0", ...libraries[directory]?.peers }
    expect(manifest.peerDependencies).toStrictEqual(peers)
    for (const [peer, range] of Object.entries(peers))
      expect(manifest.devDependencies?.[peer], peer).toBe(range)
  })

  it("depends only on feature packages below it and its own libraries: exactly those its sources import", () => {
    const features = Object.keys(manifest.dependencies ?? {}).filter((name) => name.startsWith("@petstore/"))
    for (const feature of features) {
      expect(below[directory], feature).toContain(feature.slice("@petstore/".length))
      expect(manifest.dependencies?.[feature], feature).toBe("workspace:^")
    }
    const own = Object.fromEntries(
      Object.entries(manifest.dependencies ?? {}).filter(([name]) => !name.startsWith("@petstore/"))
    )
    expect(own).toStrictEqual(libraries[directory]?.own ?? {})
    const imported = [...importsOf(packageRoot)].map(packageOf).filter((name) => name !== "effect")
    const declared = [
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}).filter((name) => name !== "effect")
    ]
    expect([...new Set(imported)].sort()).toStrictEqual(declared.sort())
  })

  it("has a root index.ts that only re-exports the package's modules", () => {
    const index = read(join(packageRoot, "src", "index.ts"))
    const code = index.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "")
    // `export { … } from "./X.js"`, `export type { … } from "./X.js"`, or a namespace imported
    // (`import * as DnsName from "./DnsName.js"`) to be exported by name (`export { DnsName }`).
    const reExport =
      /^(?:export (?:type )?\{[^}]*\} from "\.\/[\w/]+\.js"|import \* as \w+ from "\.\/\w+\.js"|export \{ \w+(?:, \w+)* \})$/gm
    expect(code.match(reExport)?.length ?? 0).toBeGreaterThan(0)
    expect(code.replace(reExport, "").trim(), "anything but a re-export").toBe("")
  })
})
