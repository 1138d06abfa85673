/**
 * `setFlagsFromString` ignores a flag V8 does not know, silently: this checks that the Node running
 * the API still knows the heap growth flag, so that an upgrade that drops it is noticed.
 */
import { spawnSync } from "node:child_process"
import { describe, expect, it } from "vitest"
import { heapGrowthFlag } from "../src/HeapGrowth.js"

describe("HeapGrowth", () => {
  it("names a flag this Node's V8 knows", () => {
    const options = spawnSync(process.execPath, ["--v8-options"], { encoding: "utf8" })
    expect(options.status).toBe(0)
    const name = heapGrowthFlag.split("=")[0]
    expect(name).toBe("--heap-growing-percent")
    expect(options.stdout).toContain(`${name} (`)
  })
})
