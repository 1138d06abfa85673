/**
 * Running the tools the check needs as child processes: pnpm (the workspace's own version, found
 * on the PATH, through the pnpm that runs this test, or fetched by npx), the workspace's TypeScript
 * compiler, and Node itself. A failure carries the command's output, which says what went wrong.
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

const run = (command: string, args: ReadonlyArray<string>, cwd: string): Promise<Output> =>
  new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, timeout: 240_000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, FORCE_COLOR: "0" } },
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

/** The workspace's TypeScript compiler, run on `cwd`'s project. */
export const tsc = (args: ReadonlyArray<string>, cwd: string): Promise<Output> =>
  run(process.execPath, [createRequire(import.meta.url).resolve("typescript/bin/tsc"), ...args], cwd)

export const node = (args: ReadonlyArray<string>, cwd: string): Promise<Output> =>
  run(process.execPath, args, cwd)
