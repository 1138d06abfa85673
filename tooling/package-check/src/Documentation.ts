/**
 * What a package's README must cover, read from its sources: every name its entry points export,
 * every port (a `Context` service or reference, an `HttpApi` middleware) and every error class; and
 * what the README shows of them: the names written as code, its TypeScript blocks (each with its
 * imports, and a part of an example file that is compiled and run) and its links.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { entryPointsOf, type WorkspacePackage } from "./Workspace.js"

const read = (path: string) => readFileSync(path, "utf8").replaceAll("\r\n", "\n")

/** A relative module specifier (`./ApiKey.js`) as the TypeScript file beside `from`. */
const sourceFileOf = (from: string, specifier: string) =>
  join(dirname(from), specifier.replace(/\.js$/, ".ts"))

/** The names a module exports, following `export * from` into the modules it re-exports. */
const exportedNames = (file: string): ReadonlyArray<string> => {
  const source = read(file)
  const names: Array<string> = []
  for (const match of source.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)) {
    for (const item of (match[1] ?? "").split(",")) {
      const name = item
        .replace(/^\s*type\s+/, "")
        .split(/\s+as\s+/)
        .pop()
        ?.trim()
      if (name !== undefined && name !== "") names.push(name)
    }
  }
  for (const match of source.matchAll(/^export\s+\*\s+as\s+(\w+)\s+from/gm)) names.push(match[1] ?? "")
  for (const match of source.matchAll(/^export\s+\*\s+from\s+"(\.[^"]+)"/gm)) {
    names.push(...exportedNames(sourceFileOf(file, match[1] ?? "")))
  }
  for (const match of source.matchAll(
    /^export\s+(?:declare\s+)?(?:abstract\s+)?(?:const|let|class|type|interface|function)\s+(\w+)/gm
  )) {
    names.push(match[1] ?? "")
  }
  return [...new Set(names)]
}

/** The names every entry point of the package exports. */
export const publicNames = (workspacePackage: WorkspacePackage): ReadonlyArray<string> => [
  ...new Set(
    entryPointsOf(workspacePackage.manifest).flatMap((entry) =>
      exportedNames(join(workspacePackage.directory, entry.source))
    )
  )
]

const sourceFiles = (directory: string): ReadonlyArray<string> =>
  readdirSync(join(directory, "src"))
    .filter((file) => file.endsWith(".ts") && file !== "index.ts")
    .map((file) => join(directory, "src", file))

const classesExtending = (pattern: RegExp) => (directory: string) =>
  sourceFiles(directory).flatMap((file) =>
    [...read(file).matchAll(pattern)].flatMap((match) => (match[1] === undefined ? [] : [match[1]]))
  )

/** Ports: `Context.Service` classes, `Context.Reference`s and `HttpApi` middleware services. */
export const portsOf = (directory: string): ReadonlyArray<string> => [
  ...classesExtending(/^export class (\w+) extends (?:Context|HttpApiMiddleware)\.Service\b/gm)(directory),
  ...classesExtending(/^export const (\w+)\b[^=]*=\s*Context\.Reference\b/gm)(directory)
]

/** Error classes: tagged errors, and the classes of the HTTP error body. */
export const errorsOf = classesExtending(
  /^export class (\w+) extends (?:Schema\.TaggedError|Schema\.TaggedErrorClass|Data\.TaggedError|ErrorClass)\b/gm
)

/** The fenced blocks of `markdown` in `language`, without their fences. */
export const codeBlocks = (markdown: string, language: string): ReadonlyArray<string> =>
  [...markdown.replaceAll("\r\n", "\n").matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)]
    .filter((match) => match[1] === language)
    .map((match) => match[2] ?? "")

/** Every identifier the README writes as code: in inline code or in a code block. */
export const namesWrittenAsCode = (markdown: string): ReadonlySet<string> => {
  const text = markdown.replaceAll("\r\n", "\n")
  const blocks = [...text.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? "")
  const inline = [...text.replace(/^```\w*\n[\s\S]*?^```$/gm, "").matchAll(/`([^`]+)`/g)].map(
    (match) => match[1] ?? ""
  )
  return new Set([...blocks, ...inline].flatMap((code) => code.match(/[A-Za-z_$][\w$]*/g) ?? []))
}

export interface Example {
  /** Relative to the package: `examples/api-keys.ts`. */
  readonly path: string
  readonly source: string
  /** What it prints, as its closing `// Output:` comment says; undefined without one. */
  readonly output: string | undefined
}

/** The text of an example's closing `// Output:` comment, one line per `//` line. */
const outputOf = (source: string): string | undefined => {
  const match = /^\/\/ Output:\n((?:\/\/.*\n?)*)$/m.exec(source)
  return match?.[1]
    ?.split("\n")
    .filter((line) => line.startsWith("//"))
    .map((line) => line.replace(/^\/\/ ?/, ""))
    .join("\n")
}

export const examplesOf = (directory: string): ReadonlyArray<Example> => {
  const folder = join(directory, "examples")
  if (!existsSync(folder)) return []
  return readdirSync(folder)
    .filter((file) => file.endsWith(".ts"))
    .sort()
    .map((file) => {
      const source = read(join(folder, file))
      return { path: `examples/${file}`, source, output: outputOf(source) }
    })
}

/** One import statement: `import { a, type B } from "x"` (bindings `a`, `B`), `import * as N from "x"` (`* as N`). */
export interface ImportStatement {
  readonly specifier: string
  readonly bindings: ReadonlyArray<string>
}

const importPattern = /^import\s+(?:type\s+)?(\{[^}]*\}|\*\s+as\s+\w+|\w+)\s+from\s+"([^"]+)"\s*$/gm

/** The import statements of a TypeScript text. */
export const importsOf = (source: string): ReadonlyArray<ImportStatement> =>
  [...source.matchAll(importPattern)].map((match) => {
    const clause = match[1] ?? ""
    const bindings = clause.startsWith("{")
      ? clause
          .slice(1, -1)
          .split(",")
          .map((item) => item.replace(/^\s*type\s+/, "").trim())
          .filter((item) => item !== "")
      : [clause.replace(/\s+/g, " ")]
    return { specifier: match[2] ?? "", bindings }
  })

/** A TypeScript block without its import statements (and the blank lines after them). */
export const withoutImports = (source: string): string => source.replace(importPattern, "").trim()

/** The targets of the Markdown links of `markdown` (`[text](target)`), in order. */
export const linksOf = (markdown: string): ReadonlyArray<string> =>
  [...markdown.replace(/^```\w*\n[\s\S]*?^```$/gm, "").matchAll(/\]\(([^)\s]+)\)/g)].map(
    (match) => match[1] ?? ""
  )
