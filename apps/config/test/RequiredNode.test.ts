/**
 * Which Node versions the apps accept, and the line a refused one is told.
 */
import { describe, expect, it } from "@effect/vitest"
import { isSupportedNode, minimumNodeVersion, unsupportedNodeMessage } from "../src/RequiredNode.js"

describe("RequiredNode", () => {
  it.each(["20.12.0", "v20.12.0", "20.12.1", "20.20.2", "21.0.0", "22.23.3", "24.1.0", "100.0.0"])(
    "accepts %s",
    (version) => {
      expect(isSupportedNode(version)).toBe(true)
    }
  )

  it.each(["20.11.1", "v20.11.0", "20.0.0", "18.20.4", "16.0.0", "not-a-version", ""])(
    "refuses %j",
    (version) => {
      expect(isSupportedNode(version)).toBe(false)
    }
  )

  it("says which Node is needed and which one this is, on one line", () => {
    const message = unsupportedNodeMessage("v20.11.0")
    expect(message).toContain(`Node.js ${minimumNodeVersion} or later`)
    expect(message).toContain("this is Node.js 20.11.0")
    expect(message).not.toContain("\n")
  })

  it("the running Node is one the apps accept", () => {
    expect(isSupportedNode(process.versions.node)).toBe(true)
  })
})
