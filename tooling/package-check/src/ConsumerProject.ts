/**
 * Another team's project, made outside the workspace: the publishable packages packed as they would
 * be published (`pnpm pack` applies `publishConfig` and rewrites `workspace:` ranges), installed from
 * their tarballs by npm (no workspace links) with their peers from the registry, at the versions the
 * workspace uses, and a strict NodeNext project that imports them.
 *
 * It needs the npm registry (for `effect`, `tldts`, `ipaddr.js`, `@types/node`): when npm or the
 * registry cannot be reached it fails, saying so, and never passes without having installed.
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { npm, pnpm } from "./Commands.js"
import { type Manifest, readJson, type WorkspacePackage } from "./Workspace.js"

export interface ConsumerProject {
  readonly directory: string
  /** Package name → its tarball. */
  readonly tarballs: ReadonlyMap<string, string>
}

/** The version of `dependency` installed for `workspacePackage` in the workspace. */
const installedVersion = (workspacePackage: WorkspacePackage, dependency: string): string => {
  const manifest = readJson<Manifest>(
    join(workspacePackage.directory, "node_modules", dependency, "package.json")
  )
  if (manifest.version === undefined) throw new Error(`${dependency} has no version`)
  return manifest.version
}

/** What a consumer compiles with: strict, NodeNext, and the published declarations checked too. */
const consumerCompilerOptions = {
  target: "ES2022",
  // Effect's declarations name Web Crypto types (CryptoKey), which TypeScript's DOM library declares.
  lib: ["ES2022", "DOM"],
  module: "NodeNext",
  moduleResolution: "NodeNext",
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  skipLibCheck: false,
  types: ["node"],
  rootDir: "src",
  outDir: "dist"
}

/** npm's own failure, with what it printed, and what to check first. */
const npmFailure = (what: string) => (error: unknown) => {
  throw new Error(
    `${what} failed: the consumer test needs npm and the npm registry, and does not pass without them.\n${String(error)}`
  )
}

/**
 * Packs `packages` into a new directory under the system's temporary one and installs them with npm,
 * with their peers and `@types/node`, into a project beside the tarballs. `sources` are written under
 * its `src` (path → text).
 */
export const makeConsumerProject = async (
  packages: ReadonlyArray<WorkspacePackage>,
  sources: ReadonlyMap<string, string>
): Promise<ConsumerProject> => {
  const root = join(tmpdir(), `petstore-consumer-${process.pid}-${Date.now()}`)
  const tarballFolder = join(root, "tarballs")
  const directory = join(root, "consumer")
  mkdirSync(tarballFolder, { recursive: true })
  mkdirSync(join(directory, "src"), { recursive: true })

  await npm(["ping"], directory).catch(npmFailure("npm ping"))

  const tarballs = new Map<string, string>()
  for (const workspacePackage of packages) {
    const before = new Set(readdirSync(tarballFolder))
    await pnpm(["pack", "--pack-destination", tarballFolder], workspacePackage.directory)
    const packed = readdirSync(tarballFolder).find((file) => !before.has(file))
    if (packed === undefined)
      throw new Error(`pnpm pack wrote no tarball for ${workspacePackage.manifest.name}`)
    tarballs.set(workspacePackage.manifest.name, `file:${join(tarballFolder, packed)}`)
  }

  const peers = new Map<string, string>()
  for (const workspacePackage of packages) {
    for (const peer of Object.keys(workspacePackage.manifest.peerDependencies ?? {})) {
      peers.set(peer, installedVersion(workspacePackage, peer))
    }
  }
  const [first] = packages
  if (first !== undefined) peers.set("@types/node", installedVersion(first, "@types/node"))

  const manifest = {
    name: "petstore-consumer",
    private: true,
    type: "module",
    dependencies: { ...Object.fromEntries(tarballs), ...Object.fromEntries(peers) },
    // The packages' dependencies on each other (`@petstore/kernel@^1.0.0`) are these tarballs too.
    overrides: Object.fromEntries(tarballs)
  }
  writeFileSync(join(directory, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`)
  writeFileSync(
    join(directory, "tsconfig.json"),
    `${JSON.stringify({ compilerOptions: consumerCompilerOptions, include: ["src"] }, null, 2)}\n`
  )
  for (const [path, text] of sources) {
    mkdirSync(join(directory, "src", path, ".."), { recursive: true })
    writeFileSync(join(directory, "src", path), text)
  }
  await npm(["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], directory).catch(
    npmFailure("npm install")
  )
  return { directory, tarballs }
}
