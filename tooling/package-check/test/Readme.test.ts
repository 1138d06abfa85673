/**
 * Each publishable package's README documents every port, error and exported name, and shows no
 * TypeScript that is not part of one of its example files (which its type-check compiles and
 * `PackAndConsume.test.ts` runs from the packed tarballs), so the README cannot drift from the code.
 *
 * A feature package's README is read by another team from npm, so it is also held to what that reader
 * has: an npm install line; every snippet with its import lines (the names it imports, its example
 * imports from the same module); every example linked, and every link to a file the package ships;
 * and nothing that only makes sense inside this repository (its paths, `pnpm --filter`, the contract's
 * section numbers).
 */
import { existsSync, readFileSync } from "node:fs"
import { join, normalize } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import {
  codeBlocks,
  errorsOf,
  examplesOf,
  type ImportStatement,
  importsOf,
  linksOf,
  namesWrittenAsCode,
  portsOf,
  publicNames,
  withoutImports
} from "../src/Documentation.js"
import { featurePackageNames, publishablePackages } from "../src/Workspace.js"

describe.each(publishablePackages().map((found) => [found.manifest.name, found] as const))(
  "%s",
  (name, found) => {
    const readmePath = join(found.directory, "README.md")
    const readme = existsSync(readmePath) ? readFileSync(readmePath, "utf8").replaceAll("\r\n", "\n") : ""
    const documented = namesWrittenAsCode(readme)
    const examples = examplesOf(found.directory)
    const missing = (names: ReadonlyArray<string>) => names.filter((each) => !documented.has(each))
    const blocks = codeBlocks(readme, "ts")

    it("has a README, which the package publishes", () => {
      expect(existsSync(readmePath)).toBe(true)
      expect(found.manifest.files).toContain("README.md")
    })

    it("has examples, each closing with the output it prints", () => {
      expect(examples.length).toBeGreaterThan(0)
      for (const example of examples) expect(example.output, example.path).toMatch(/\S/)
    })

    it("shows only TypeScript that is part of an example", () => {
      expect(blocks.length).toBeGreaterThan(0)
      const shown = blocks.filter(
        (block) => !examples.some((example) => example.source.includes(withoutImports(block)))
      )
      expect(shown, "README blocks found in no file of examples/").toStrictEqual([])
    })

    it("documents every port and error", () => {
      expect(missing(portsOf(found.directory)), "ports").toStrictEqual([])
      expect(missing(errorsOf(found.directory)), "errors").toStrictEqual([])
    })

    it("documents every exported name", () => {
      expect(missing(publicNames(found)), "exports").toStrictEqual([])
    })

    if (!featurePackageNames.includes(name)) return

    it("says how to install it with npm", () => {
      expect(readme).toMatch(new RegExp(`^npm install ${name}( |$)`, "m"))
    })

    it("shows every snippet with its import lines, the ones its example has", () => {
      const imports = (example: { readonly source: string }, statement: ImportStatement) =>
        statement.bindings.every((binding) =>
          importsOf(example.source).some(
            (candidate) => candidate.specifier === statement.specifier && candidate.bindings.includes(binding)
          )
        )
      for (const block of blocks) {
        const statements = importsOf(block)
        expect(statements.length, block.slice(0, 80)).toBeGreaterThan(0)
        const from = examples.filter(
          (example) =>
            example.source.includes(withoutImports(block)) &&
            statements.every((statement) => imports(example, statement))
        )
        expect(from.length, `no example has this block with these imports:\n${block}`).toBeGreaterThan(0)
      }
    })

    it("links every example, and only files the package ships", () => {
      const links = linksOf(readme)
      for (const example of examples) expect(links, example.path).toContain(example.path)
      const shipped = found.manifest.files ?? []
      for (const link of links.filter((target) => !/^(?:[a-z]+:|#)/.test(target))) {
        const path = normalize(link.split("#")[0] ?? "")
        expect(existsSync(join(found.directory, path)), link).toBe(true)
        expect(
          shipped.some((entry) => path === entry || path.startsWith(`${entry}/`)),
          `${link} is not in files`
        ).toBe(true)
      }
    })

    it("speaks to a reader outside this repository", () => {
      for (const inside of [
        /pnpm --filter/,
        /\bpnpm add\b/,
        /\bworkspace\b/i,
        /\bmonorepo\b/i,
        /contract section|section \d+ of the contract/i,
        /(?:^|[\s(`])(?:packages|tooling|apps)\//m,
        /\]\(\.\.\//
      ]) {
        expect(readme, String(inside)).not.toMatch(inside)
      }
    })
  }
)
