/**
 * Builds the API app and everything it depends on (turbo replays unchanged packages from its cache).
 * Kept apart from the other support so vitest's global setup can load it without the test runtime.
 */
import { execFile } from "node:child_process"
import { dirname, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..")

export const buildApp = (): Promise<void> =>
  new Promise((resolvePromise, reject) => {
    execFile(
      "pnpm",
      ["turbo", "run", "build", "--filter=@petstore/api-app...", "--output-logs=errors-only"],
      { cwd: repositoryRoot, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error === null
          ? resolvePromise()
          : reject(new Error(`building the API app failed: ${error.message}\n${stdout}\n${stderr}`))
    )
  })
