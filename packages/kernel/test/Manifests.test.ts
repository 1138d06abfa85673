/**
 * The domain packages' manifests have the shape a published package needs: every public module is an
 * entry point of its own (source for the monorepo's tests, declarations and JavaScript from `dist`
 * otherwise), the root re-exports them, and what is published is the build, the sources and the README.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"

const packagesRoot = fileURLToPath(new URL("../..", import.meta.url))

interface Manifest {
  readonly name: string
  readonly files?: ReadonlyArray<string>
  readonly types?: string
  readonly sideEffects?: boolean
  readonly exports: Readonly<Record<string, unknown>>
  readonly private?: boolean
  readonly dependencies?: Readonly<Record<string, string>>
  readonly peerDependencies?: Readonly<Record<string, string>>
}

const entry = (source: string) => ({
  "@petstore/source": `./src/${source}.ts`,
  types: `./dist/${source}.d.ts`,
  default: `./dist/${source}.js`
})

describe.each(["kernel", "catalogue", "custom-domains"])("packages/%s/package.json", (directory) => {
  const packageRoot = join(packagesRoot, directory)
  const manifest = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as Manifest
  const modules = readdirSync(join(packageRoot, "src"))
    .filter((file) => file.endsWith(".ts") && file !== "index.ts")
    .map((file) => file.slice(0, -".ts".length))

  it("is @petstore/<directory>, publishes its build, sources, README and changelog, and has no side effects", () => {
    expect(manifest.name).toBe(`@petstore/${directory}`)
    expect(manifest.files).toStrictEqual(["dist", "src", "README.md", "CHANGELOG.md"])
    expect(manifest.types).toBe("./dist/index.d.ts")
    expect(manifest.sideEffects).toBe(false)
  })

  it("is published, with the libraries it shares with its users as peers and the kernel by a caret range", () => {
    expect(manifest.private).toBeUndefined()
    expect(Object.keys(manifest.peerDependencies ?? {}).sort()).toStrictEqual(
      directory === "custom-domains" ? ["effect", "tldts"] : ["effect"]
    )
    // Custom domains also classify webhook addresses with ipaddr.js, which no user needs to share.
    expect(manifest.dependencies ?? {}).toStrictEqual(
      directory === "kernel"
        ? {}
        : directory === "custom-domains"
          ? { "@petstore/kernel": "workspace:^", "ipaddr.js": "^2.5.0" }
          : { "@petstore/kernel": "workspace:^" }
    )
  })

  it("exports the root and every module as an entry point", () => {
    expect(manifest.exports["."]).toStrictEqual(entry("index"))
    for (const module of modules) expect(manifest.exports[`./${module}`], module).toStrictEqual(entry(module))
  })

  it("exports nothing but its modules, its test support and its manifest", () => {
    const expected = [".", ...modules.map((module) => `./${module}`), "./package.json"]
    const extra = Object.keys(manifest.exports).filter((key) => !expected.includes(key))
    expect(extra).toStrictEqual(directory === "kernel" ? ["./testing"] : [])
  })

  it("re-exports every module from its root, by name", () => {
    const index = readFileSync(join(packageRoot, "src", "index.ts"), "utf8")
    expect(index).not.toMatch(/export \*/)
    for (const module of modules) expect(index, module).toContain(`from "./${module}.js"`)
  })
})

describe("@petstore/kernel/testing", () => {
  it("is built source, so a published kernel has it too", () => {
    const manifest = JSON.parse(
      readFileSync(join(packagesRoot, "kernel", "package.json"), "utf8")
    ) as Manifest
    expect(manifest.exports["./testing"]).toStrictEqual(entry("testing/index"))
  })
})
