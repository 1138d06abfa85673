/**
 * The table of feature packages (`features.json`), which dependency-cruiser's rules, the size check and
 * the kernel's Purity test read, describes this repository: dependencies one way, packages that exist,
 * and the same feature packages biome's purity rule covers.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { readFeatureTable } from "../src/FeatureTable.ts"

const repositoryRoot = fileURLToPath(new URL("../../..", import.meta.url))
const table = readFeatureTable(repositoryRoot)
const features = Object.keys(table.features)

interface BiomeOverride {
  readonly includes?: ReadonlyArray<string>
  readonly linter?: {
    readonly rules?: {
      readonly style?: {
        readonly noRestrictedImports?: {
          readonly options?: { readonly patterns?: ReadonlyArray<{ readonly group: ReadonlyArray<string> }> }
        }
      }
    }
  }
}

describe("the feature table", () => {
  it("has the ten feature packages", () => {
    expect(features).toHaveLength(10)
  })

  it.each(features)("%s names only features listed above it, so dependencies run one way", (feature) => {
    const above = features.slice(0, features.indexOf(feature))
    expect((table.features[feature] ?? []).filter((below) => !above.includes(below))).toStrictEqual([])
  })

  it.each(features)("packages/%s is a package with sources", (feature) => {
    expect(existsSync(join(repositoryRoot, "packages", feature, "src/index.ts"))).toBe(true)
  })

  it("gives libraries to feature packages only", () => {
    expect(Object.keys(table.libraries).filter((name) => !features.includes(name))).toStrictEqual([])
  })

  it("lists the packages biome's purity rule covers, and allows", () => {
    const biome = JSON.parse(readFileSync(join(repositoryRoot, "tooling/biome/biome.json"), "utf8")) as {
      readonly overrides: ReadonlyArray<BiomeOverride>
    }
    const purity = biome.overrides.find(
      (override) => override.linter?.rules?.style?.noRestrictedImports !== undefined
    )
    expect([...(purity?.includes ?? [])].sort()).toStrictEqual(
      features.map((feature) => `packages/${feature}/src/**`).sort()
    )
    const group = purity?.linter?.rules?.style?.noRestrictedImports?.options?.patterns?.[0]?.group ?? []
    expect(group.filter((pattern) => pattern.startsWith("!@petstore/")).sort()).toStrictEqual(
      features.map((feature) => `!@petstore/${feature}`).sort()
    )
  })
})
