/**
 * A throwaway workspace laid out like this repository: packages with manifests and sources, each with a
 * `node_modules` linking what its manifest declares, as pnpm links it (another package of the
 * workspace, or an npm package this repository really installed). dependency-cruiser resolves it as it
 * resolves the real tree, so a rule proven on it holds there.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"

export interface FixturePackage {
  readonly name: string
  readonly dependencies?: ReadonlyArray<string>
  readonly devDependencies?: ReadonlyArray<string>
  readonly peerDependencies?: ReadonlyArray<string>
  /** Subpath exports besides the root (`src/index.ts`), each to its file. */
  readonly subpaths?: Readonly<Record<string, string>>
  /** Source files by their path in the package. */
  readonly files?: Readonly<Record<string, string>>
}

export interface FixtureWorkspace {
  readonly root: string
  readonly remove: () => void
}

const declared = (names: ReadonlyArray<string> | undefined): Record<string, string> =>
  Object.fromEntries((names ?? []).map((name) => [name, "*"]))

const manifestOf = (fixture: FixturePackage) => ({
  name: fixture.name,
  version: "1.0.0",
  private: true,
  type: "module",
  exports: Object.fromEntries(
    [[".", "src/index.ts"], ...Object.entries(fixture.subpaths ?? {})].map(([subpath, file]) => [
      subpath,
      { "@petstore/source": `./${file}` }
    ])
  ),
  dependencies: declared(fixture.dependencies),
  devDependencies: declared(fixture.devDependencies),
  peerDependencies: declared(fixture.peerDependencies)
})

const writeFile = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
}

/**
 * Writes the packages (by directory, `.` for the workspace root) to a new temporary directory.
 * `installed` gives the directory of every npm package a manifest may declare.
 */
export const writeFixtureWorkspace = (
  packages: Readonly<Record<string, FixturePackage>>,
  installed: Readonly<Record<string, string>>
): FixtureWorkspace => {
  const root = mkdtempSync(join(tmpdir(), "petstore-structure-"))
  const directoryOf = new Map(Object.entries(packages).map(([directory, { name }]) => [name, directory]))
  for (const [directory, fixture] of Object.entries(packages)) {
    const packageRoot = join(root, directory)
    writeFile(join(packageRoot, "package.json"), `${JSON.stringify(manifestOf(fixture), null, 2)}\n`)
    for (const [file, text] of Object.entries(fixture.files ?? {})) writeFile(join(packageRoot, file), text)
    const names = [
      ...(fixture.dependencies ?? []),
      ...(fixture.devDependencies ?? []),
      ...(fixture.peerDependencies ?? [])
    ]
    for (const name of new Set(names)) {
      const workspacePackage = directoryOf.get(name)
      const target = workspacePackage === undefined ? installed[name] : join(root, workspacePackage)
      if (target === undefined)
        throw new Error(`${directory} declares ${name}, which is neither here nor installed`)
      const link = join(packageRoot, "node_modules", name)
      mkdirSync(dirname(link), { recursive: true })
      symlinkSync(target, link, "dir")
    }
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) }
}
