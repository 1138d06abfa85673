/**
 * Running the tools the check needs as child processes: pnpm (the workspace's own version, found
 * on the PATH, through the pnpm that runs this test, or fetched by npx), npm (as another team
 * installs), the workspace's TypeScript compiler, and Node itself. A failure carries the command's
 * output, which says what went wrong.
 */
import { execFile } from "node:child_process"
import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import { delimiter, join } from "node:path"
import { readJson, repositoryRoot } from "./Workspace.js"

export interface Output {
  readonly stdout: string
  readonly stderr: string
}

const run = (
  command: string,
  args: ReadonlyArray<string>,
  cwd: string,
  env: NodeJS.ProcessEnv = process.env
): Promise<Output> =>
  new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, timeout: 240_000, maxBuffer: 64 * 1024 * 1024, env: { ...env, FORCE_COLOR: "0" } },
      (error, stdout, stderr) =>
        error === null
          ? resolve({ stdout, stderr })
          : reject(
              new Error(
                `${command} ${args.join(" ")} (in ${cwd}) failed: ${error.message}\n${stdout}\n${stderr}`
              )
            )
    )
  })

/** `pnpm@10.34.9`, from the root manifest's `packageManager`. */
const pinnedPnpm = (): string =>
  readJson<{ readonly packageManager: string }>(join(repositoryRoot, "package.json")).packageManager

const pnpmOnPath = (): string | undefined =>
  (process.env.PATH ?? "")
    .split(delimiter)
    .map((directory) => join(directory, "pnpm"))
    .find((candidate) => existsSync(candidate))

/** Runs the workspace's pnpm with `args` in `cwd`. */
export const pnpm = (args: ReadonlyArray<string>, cwd: string): Promise<Output> => {
  const execPath = process.env.npm_execpath
  if (execPath !== undefined && /pnpm/.test(execPath)) return run(process.execPath, [execPath, ...args], cwd)
  const onPath = pnpmOnPath()
  return onPath === undefined ? run("npx", ["--yes", pinnedPnpm(), ...args], cwd) : run(onPath, args, cwd)
}

/**
 * The settings pnpm passes to the scripts it runs (`npm_config_*`, `npm_package_*`, …) are pnpm's
 * and this package's, not a settings of another team's npm: only the ones that say how to reach a
 * registry are kept.
 */
const npmEnvironment = (): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) =>
        !/^(?:npm_(?:config|package|lifecycle|execpath|node_execpath|command)|pnpm_)/i.test(name) ||
        /^npm_config_(?:registry|cache|userconfig|cafile|strict_ssl|proxy|https_proxy|noproxy)$/i.test(name)
    )
  )

/** Runs the npm on the PATH, as another team would, with `args` in `cwd`. */
export const npm = (args: ReadonlyArray<string>, cwd: string): Promise<Output> =>
  run("npm", args, cwd, npmEnvironment())

/** The workspace's TypeScript compiler, run on `cwd`'s project. */
export const tsc = (args: ReadonlyArray<string>, cwd: string): Promise<Output> =>
  run(process.execPath, [createRequire(import.meta.url).resolve("typescript/bin/tsc"), ...args], cwd)

export const node = (args: ReadonlyArray<string>, cwd: string): Promise<Output> =>
  run(process.execPath, args, cwd)
