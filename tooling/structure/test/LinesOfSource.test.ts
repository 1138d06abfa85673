import { describe, expect, it } from "vitest"
import { countLines } from "../src/LinesOfSource.ts"

const lines = (...text: ReadonlyArray<string>) => `${text.join("\n")}\n`

describe("lines of source", () => {
  it("are the non-blank lines that are not comments", () => {
    const text = lines(
      "/**",
      " * A doc comment.",
      " */",
      "",
      "// A line comment.",
      'import { Schema } from "effect"',
      "   ",
      "/* A block comment */",
      "export const a = 1 // code with a comment counts",
      "/* before */ export const b = 2",
      "export const c = {",
      "  /** A member's doc comment. */",
      "  d: 3",
      "}"
    )
    expect(countLines(text)).toStrictEqual({ source: 6, all: 14 })
  })

  it("count a comment's markers in strings and templates as code", () => {
    const text = lines(
      'const url = "https://example.com"',
      "const template = `",
      "// not a comment",
      "",
      "/* nor this */",
      "`",
      "const pattern = /\\/\\//"
    )
    // The template's blank line is blank.
    expect(countLines(text)).toStrictEqual({ source: 6, all: 7 })
  })

  it("count every line of a file, with or without its last newline", () => {
    expect(countLines("")).toStrictEqual({ source: 0, all: 0 })
    expect(countLines("export {}")).toStrictEqual({ source: 1, all: 1 })
    expect(countLines("export {}\n\n")).toStrictEqual({ source: 1, all: 2 })
    expect(countLines("// only a comment\r\n// and another\r\n")).toStrictEqual({ source: 0, all: 2 })
  })
})
