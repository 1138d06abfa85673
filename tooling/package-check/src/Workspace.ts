/**
 * The workspace's packages as their manifests describe them, and which of them are published: every
 * package that is not `private`. Nothing else lists them, so a package made publishable is checked
 * from then on.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..")

type Dependencies = Readonly<Record<string, string>>

export interface Manifest {
  readonly name: string
  readonly version?: string
  readonly private?: boolean
  readonly files?: ReadonlyArray<string>
  readonly exports?: Readonly<Record<string, unknown>>
  readonly scripts?: Readonly<Record<string, string>>
  readonly dependencies?: Dependencies
  readonly peerDependencies?: Dependencies
  readonly devDependencies?: Dependencies
}

export interface WorkspacePackage {
  /** Absolute. */
  readonly directory: string
  readonly manifest: Manifest
}

export const readJson = <A>(path: string): A => JSON.parse(readFileSync(path, "utf8")) as A

/** The folders `pnpm-workspace.yaml` names (`packages/*`, …). */
const workspaceFolders = (): ReadonlyArray<string> =>
  readFileSync(join(repositoryRoot, "pnpm-workspace.yaml"), "utf8")
    .split("\n")
    .flatMap((line) => /^\s*-\s*["']?([^"'*]+)\/\*["']?\s*$/.exec(line)?.[1] ?? [])

export const workspacePackages = (): ReadonlyArray<WorkspacePackage> =>
  workspaceFolders().flatMap((folder) =>
    readdirSync(join(repositoryRoot, folder))
      .map((name) => join(repositoryRoot, folder, name))
      .filter((directory) => existsSync(join(directory, "package.json")))
      .map((directory) => ({ directory, manifest: readJson<Manifest>(join(directory, "package.json")) }))
  )

export const publishablePackages = (): ReadonlyArray<WorkspacePackage> =>
  workspacePackages().filter((workspacePackage) => workspacePackage.manifest.private !== true)

/**
 * The feature packages another team picks up from npm (rules, use cases and ports; no I/O), bottom
 * up; besides them only the HTTP contract, `@petstore/api`, is published.
 */
export const featurePackageNames: ReadonlyArray<string> = [
  "@petstore/kernel",
  "@petstore/catalogue",
  "@petstore/projects",
  "@petstore/domains",
  "@petstore/ownership",
  "@petstore/certificates",
  "@petstore/events",
  "@petstore/serving",
  "@petstore/webhooks",
  "@petstore/custom-domains"
]

/** One entry of a package's `exports`: what a consumer imports and the files behind it. */
export interface EntryPoint {
  /** `@petstore/kernel`, `@petstore/kernel/Account`. */
  readonly specifier: string
  /** The TypeScript source (the `@petstore/source` condition), relative to the package. */
  readonly source: string
  /** The JavaScript a consumer loads (the `default` condition), relative to the package. */
  readonly javascript: string
}

export const entryPointsOf = (manifest: Manifest): ReadonlyArray<EntryPoint> =>
  Object.entries(manifest.exports ?? {}).flatMap(([subpath, target]) => {
    if (typeof target !== "object" || target === null) return []
    const conditions = target as Readonly<Record<string, string>>
    const source = conditions["@petstore/source"]
    const javascript = conditions.default
    if (source === undefined || javascript === undefined) return []
    return [{ specifier: manifest.name + subpath.slice(1), source, javascript }]
  })
