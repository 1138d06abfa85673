/**
 * The built API process and key CLI started with a Node older than the apps run on: each exits at
 * once with status 1 and one line saying which Node it needs, before loading anything that would fail
 * on that Node. The older Node is this one with `process.versions.node` set before the entry loads.
 */
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { afterEach, describe, expect, it } from "@effect/vitest"
import { NodeProcess } from "@petstore/testing"

const appDirectory = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const cleanups = NodeProcess.makeCleanups()
afterEach(cleanups.releaseAll)

/** Node's `--import` of a module that makes this Node report `version`. */
const reportingVersion = (version: string) => [
  "--import",
  `data:text/javascript,Object.defineProperty(process.versions,"node",{value:${JSON.stringify(version)}})`
]

const runWith = async (script: string, version: string) => {
  const started = NodeProcess.spawnNode(join(appDirectory, script), {
    cwd: appDirectory,
    env: { PETSTORE_STORAGE: "memory" },
    nodeArgs: reportingVersion(version)
  })
  cleanups.register(started.kill)
  const exited = await NodeProcess.withTimeout(started.exited, 20_000, `${script} on Node ${version}`)
  return { exited, stdout: started.stdout(), stderr: started.stderr() }
}

describe("an unsupported Node", () => {
  it.each(["dist/main.js", "dist/cli.js"])(
    "%s on Node 20.11.0 exits 1 with one line naming the Node it needs",
    async (script) => {
      const { exited, stderr, stdout } = await runWith(script, "20.11.0")
      expect(exited.code).toBe(1)
      expect(stdout).toBe("")
      expect(stderr).toMatch(
        /^petstore needs Node\.js 20\.12\.0 or later; this is Node\.js 20\.11\.0\. [^\n]*\n$/
      )
    }
  )

  it("the CLI on Node 20.12.0 runs as usual (its usage, without a command)", async () => {
    const started = NodeProcess.spawnNode(join(appDirectory, "dist/cli.js"), {
      cwd: appDirectory,
      env: { PETSTORE_STORAGE: "memory" },
      nodeArgs: reportingVersion("20.12.0")
    })
    cleanups.register(started.kill)
    started.child.stdin?.end()
    const exited = await NodeProcess.withTimeout(started.exited, 20_000, "dist/cli.js on Node 20.12.0")
    expect(started.stderr()).not.toContain("petstore needs Node.js")
    expect(exited.code, started.output()).toBe(0)
    expect(started.stdout()).toContain("SUBCOMMANDS")
  })
})
