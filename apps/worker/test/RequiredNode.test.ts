/**
 * The built worker started with a Node older than the apps run on: it exits at once with status 1
 * and one line saying which Node it needs, before loading anything that would fail on that Node. The
 * older Node is this one with `process.versions.node` set before the entry loads.
 */
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { afterEach, expect, it } from "@effect/vitest"
import { NodeProcess } from "@petstore/testing"

const appDirectory = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const cleanups = NodeProcess.makeCleanups()
afterEach(cleanups.releaseAll)

it("the worker on Node 20.11.0 exits 1 with one line naming the Node it needs", async () => {
  const started = NodeProcess.spawnNode(join(appDirectory, "dist/main.js"), {
    cwd: appDirectory,
    env: { DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" },
    nodeArgs: [
      "--import",
      'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.11.0"})'
    ]
  })
  cleanups.register(started.kill)
  const exited = await NodeProcess.withTimeout(started.exited, 20_000, "the worker on Node 20.11.0")
  expect(exited.code).toBe(1)
  expect(started.stdout()).toBe("")
  expect(started.stderr()).toMatch(
    /^petstore needs Node\.js 20\.12\.0 or later; this is Node\.js 20\.11\.0\. [^\n]*\n$/
  )
})
