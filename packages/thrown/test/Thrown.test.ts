/**
 * The message of whatever was thrown: an Error's own message, a string as it is, other values as JSON
 * (so a plain object says what it holds), and something readable for the values JSON cannot write.
 */
import { describe, expect, it } from "vitest"
import { Thrown } from "../src/index.js"

describe("Thrown.messageOf", () => {
  it("is an Error's message, without its name or stack", () => {
    expect(Thrown.messageOf(new TypeError("bad name"))).toBe("bad name")
    expect(Thrown.messageOf(Object.assign(new Error("listen EADDRINUSE"), { code: "EADDRINUSE" }))).toBe(
      "listen EADDRINUSE"
    )
  })

  it("is a thrown string itself, unquoted", () => {
    expect(Thrown.messageOf("connection reset")).toBe("connection reset")
  })

  it("writes a plain object as JSON, so its fields are seen", () => {
    expect(Thrown.messageOf({ type: "urn:ietf:params:acme:error:malformed", status: 400 })).toBe(
      '{"type":"urn:ietf:params:acme:error:malformed","status":400}'
    )
    expect(Thrown.messageOf(42)).toBe("42")
    expect(Thrown.messageOf(null)).toBe("null")
  })

  it("falls back to String for what JSON cannot write", () => {
    const cycle: { self?: unknown } = {}
    cycle.self = cycle
    expect(Thrown.messageOf(cycle)).toBe("[object Object]")
    expect(Thrown.messageOf(undefined)).toBe("undefined")
    expect(Thrown.messageOf(10n)).toBe("10")
    expect(Thrown.messageOf(Symbol("gone"))).toBe("Symbol(gone)")
  })
})
