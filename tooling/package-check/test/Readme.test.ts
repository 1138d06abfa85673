/**
 * Each publishable package's README documents every port, error, module and exported name, and
 * shows no TypeScript that is not part of one of its example files (which its type-check compiles
 * and `PackAndConsume.test.ts` runs), so the README cannot drift from the code.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import {
  codeBlocks,
  errorsOf,
  examplesOf,
  modulesOf,
  namesWrittenAsCode,
  portsOf,
  publicNames
} from "../src/Documentation.js"
import { publishablePackages } from "../src/Workspace.js"

describe.each(publishablePackages().map((found) => [found.manifest.name, found] as const))(
  "%s",
  (_, found) => {
    const readmePath = join(found.directory, "README.md")
    const readme = existsSync(readmePath) ? readFileSync(readmePath, "utf8").replaceAll("\r\n", "\n") : ""
    const documented = namesWrittenAsCode(readme)
    const examples = examplesOf(found.directory)
    const missing = (names: ReadonlyArray<string>) => names.filter((name) => !documented.has(name))

    it("has a README, which the package publishes", () => {
      expect(existsSync(readmePath)).toBe(true)
      expect(found.manifest.files).toContain("README.md")
    })

    it("has examples, each closing with the output it prints", () => {
      expect(examples.length).toBeGreaterThan(0)
      for (const example of examples) expect(example.output, example.path).toMatch(/\S/)
    })

    it("shows only TypeScript that is part of an example", () => {
      const blocks = codeBlocks(readme, "ts")
      expect(blocks.length).toBeGreaterThan(0)
      const shown = blocks.filter(
        (block) => !examples.some((example) => example.source.includes(block.trim()))
      )
      expect(shown, "README blocks found in no file of examples/").toStrictEqual([])
    })

    it("documents every port and error", () => {
      expect(missing(portsOf(found.directory)), "ports").toStrictEqual([])
      expect(missing(errorsOf(found.directory)), "errors").toStrictEqual([])
    })

    it("documents every module and every exported name", () => {
      expect(missing(modulesOf(found.directory)), "modules").toStrictEqual([])
      expect(missing(publicNames(found)), "exports").toStrictEqual([])
    })
  }
)
