/**
 * Lines of source: the non-blank lines of a file that are not comments. A line with code and a comment
 * counts; a line of a comment, a doc comment or blank space does not. The file is parsed (TypeScript's
 * parser), so a `//` in a string or a template is code, not a comment.
 */
import ts from "typescript"

export interface LineCount {
  /** Non-blank lines that are not comments. */
  readonly source: number
  /** Every line of the file. */
  readonly all: number
}

const isDocComment = (node: ts.Node): boolean =>
  node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode

/** Counts the lines of source and all the lines of a TypeScript or JavaScript file's text. */
export const countLines = (text: string, fileName = "module.ts"): LineCount => {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false)
  const lines = text.split(/\r\n|\r|\n/)
  const all = text.length === 0 ? 0 : /(\r\n|\r|\n)$/.test(text) ? lines.length - 1 : lines.length
  const code = new Set<number>()
  const lineOf = (position: number) => file.getLineAndCharacterOfPosition(position).line
  const visit = (node: ts.Node): void => {
    if (isDocComment(node)) return
    const children = node.getChildren(file)
    if (children.length > 0) {
      for (const child of children) visit(child)
      return
    }
    // A token's lines, from its first character (after the comments before it) to its last; the end
    // of the file, and an empty list, have none.
    const start = node.getStart(file)
    const end = node.getEnd()
    if (node.kind === ts.SyntaxKind.EndOfFileToken || end <= start) return
    for (let line = lineOf(start); line <= lineOf(end - 1); line++) code.add(line)
  }
  visit(file)
  const source = [...code].filter((line) => (lines[line] ?? "").trim() !== "").length
  return { source, all }
}
