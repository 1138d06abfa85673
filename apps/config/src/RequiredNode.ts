/**
 * The Node.js the apps run on: 20.12 or later (`crypto.hash` came with 20.12, and older Nodes refuse
 * the bundle at load with a `SyntaxError` naming an import). Each app's entry checks first, with
 * nothing else loaded yet, and a process started with an older Node exits with one line saying
 * which Node it needs. This module imports nothing, so that the check itself loads on any Node.
 */

/** The oldest Node.js the apps run on, as `engines.node` in every manifest says. */
export const minimumNodeVersion = "20.12.0"

const parts = (version: string): ReadonlyArray<number> =>
  version
    .replace(/^v/, "")
    .split(".")
    .map((part) => Number.parseInt(part, 10))

/** Whether `version` (`process.versions.node`, with or without a leading `v`) is at least the minimum. */
export const isSupportedNode = (version: string): boolean => {
  const found = parts(version)
  const needed = parts(minimumNodeVersion)
  for (let index = 0; index < needed.length; index++) {
    const have = found[index] ?? 0
    const need = needed[index] ?? 0
    if (!Number.isFinite(have)) return false
    if (have !== need) return have > need
  }
  return true
}

/** The one line an app prints when started with a Node older than the minimum. */
export const unsupportedNodeMessage = (version: string): string =>
  `petstore needs Node.js ${minimumNodeVersion} or later; this is Node.js ${version.replace(/^v/, "")}. ` +
  "Start it through pnpm (pnpm start), which runs the Node 22 the install brings, or install a newer Node."

/** Exits the process with that line (status 1) unless this Node is supported. */
export const exitUnlessSupportedNode = (): void => {
  const version = process.versions.node
  if (isSupportedNode(version)) return
  process.stderr.write(`${unsupportedNodeMessage(version)}\n`)
  process.exit(1)
}
