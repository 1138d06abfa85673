/**
 * Every publishable package (every package not `private`) has its manifest checked by publint and
 * arethetypeswrong in `pnpm lint`, after its build, and no other package is: the lint follows the
 * `private` flag, as the pack test and Changesets do.
 */
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { publishablePackages, readJson, repositoryRoot, workspacePackages } from "../src/Workspace.js"

interface TurboConfig {
  readonly tasks: Readonly<Record<string, { readonly dependsOn?: ReadonlyArray<string> }>>
}

const linted = (scripts: Readonly<Record<string, string>> | undefined) =>
  scripts?.["lint:package"] !== undefined

describe("the package manifests' lint", () => {
  const publishable = publishablePackages()

  it("runs for the publishable packages only", () => {
    expect(publishable.length).toBeGreaterThan(0)
    const lintedNames = workspacePackages()
      .filter((found) => linted(found.manifest.scripts))
      .map((found) => found.manifest.name)
    expect(lintedNames.sort()).toStrictEqual(publishable.map((found) => found.manifest.name).sort())
  })

  it.each(publishable.map((found) => [found.manifest.name, found] as const))(
    "checks %s with publint and arethetypeswrong, once it is built",
    (name, found) => {
      expect(found.manifest.scripts?.["lint:package"]).toMatch(
        /publint --strict.*attw --pack \. --profile esm-only/
      )
      const own = readJson<TurboConfig>(join(found.directory, "turbo.json"))
      expect(own.tasks["lint:package"]?.dependsOn).toStrictEqual(["build"])
      const root = readJson<TurboConfig>(join(repositoryRoot, "turbo.json"))
      // `pnpm lint` runs inside `pnpm test`'s turbo: the builds come first, so its own turbo finds them done.
      expect(root.tasks["//#lint"]?.dependsOn).toContain(`${name}#build`)
    }
  )
})
