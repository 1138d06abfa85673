/**
 * Builds a workspace package and everything it depends on (turbo replays unchanged packages from its
 * cache). Imported by vitest global setups, which run outside the test runtime: it must not import
 * vitest, so it is its own entry point (`@petstore/testing/build`).
 */
import { execFile } from "node:child_process"
import { dirname, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..")

export const buildWithDependencies = (packageName: string): Promise<void> =>
  new Promise((resolvePromise, reject) => {
    execFile(
      "pnpm",
      ["turbo", "run", "build", `--filter=${packageName}...`, "--output-logs=errors-only"],
      { cwd: repositoryRoot, timeout: 280_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error === null
          ? resolvePromise()
          : reject(new Error(`building ${packageName} failed: ${error.message}\n${stdout}\n${stderr}`))
    )
  })

/**
 * A vitest global setup for tests that spawn a built app: built once per run, before any test file
 * starts. Under the repository's test command turbo has built it already (`PETSTORE_PREBUILT=1`).
 */
export const buildOnceForTests = (packageName: string) => async (): Promise<void> => {
  if (process.env.PETSTORE_PREBUILT === "1") return
  await buildWithDependencies(packageName)
}
