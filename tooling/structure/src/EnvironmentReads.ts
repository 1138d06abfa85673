/**
 * The environment reads of a source file: what `apps/config` alone may do (architecture rule 4). A read
 * is `process.env` (however `process` is reached or destructured, or `env` imported from
 * `node:process`), an import of `effect/Config`, a use of effect's `Config` as a value (`Config.String(…)`,
 * `Config.schema(…, "NAME")`, `Config.all(…)`: each reads or composes reads of variables), or an effect
 * `ConfigProvider` that reads the environment or files (`fromEnv()` without an `env` of its own,
 * `fromDotEnv`, `fromDir`). Naming `Config.Config` or `Config.ConfigError` as a type, or recognising a
 * `Config.ConfigError` to describe it, reads nothing; nor does a `ConfigProvider` built from values in
 * the source (`ConfigProvider.fromEnv({ env: { … } })`).
 */
import ts from "typescript"

export interface EnvironmentRead {
  /** The line it is on, from 1. */
  readonly line: number
  /** What reads, as it is written: `process.env`, `Config.String`. */
  readonly read: string
}

/** `Config`'s members that read nothing: its error, to describe a failed read, and its guard. */
const configMembersThatReadNothing = new Set(["ConfigError", "isConfig"])
/** `ConfigProvider`'s constructors that read files. */
const providersFromFiles = new Set(["fromDotEnv", "fromDir"])

const moduleOf = (declaration: ts.ImportDeclaration): string =>
  ts.isStringLiteral(declaration.moduleSpecifier) ? declaration.moduleSpecifier.text : ""

/** The names a file binds to a module's export `name` (`import { name as local }`), or to the module itself. */
const bindingsOf = (
  file: ts.SourceFile,
  modules: ReadonlyArray<string>,
  name: string | undefined
): Set<string> => {
  const names = new Set<string>()
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !modules.includes(moduleOf(statement))) continue
    const clause = statement.importClause
    if (clause === undefined || clause.isTypeOnly) continue
    const bindings = clause.namedBindings
    if (name === undefined) {
      if (clause.name !== undefined) names.add(clause.name.text)
      if (bindings !== undefined && ts.isNamespaceImport(bindings)) names.add(bindings.name.text)
    } else if (bindings !== undefined && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) {
        if (!element.isTypeOnly && (element.propertyName ?? element.name).text === name)
          names.add(element.name.text)
      }
    }
  }
  return names
}

const propertyName = (name: ts.Node): string | undefined =>
  ts.isIdentifier(name) || ts.isStringLiteralLike(name) ? name.text : undefined

/** Whether an object literal names an `env` of its own. */
const hasOwnEnv = (argument: ts.Expression | undefined): boolean =>
  argument !== undefined &&
  ts.isObjectLiteralExpression(argument) &&
  argument.properties.some(
    (property) =>
      (ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property)) &&
      propertyName(property.name) === "env"
  )

/** The environment reads in a TypeScript or JavaScript file's text. */
export const environmentReadsOf = (text: string, fileName = "module.ts"): ReadonlyArray<EnvironmentRead> => {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true)
  const processModules = ["process", "node:process"]
  const processNames = new Set(["process", ...bindingsOf(file, processModules, undefined)])
  const configNames = new Set([
    ...bindingsOf(file, ["effect"], "Config"),
    ...bindingsOf(file, ["effect/Config"], undefined)
  ])
  const providerNames = new Set([
    ...bindingsOf(file, ["effect"], "ConfigProvider"),
    ...bindingsOf(file, ["effect/ConfigProvider"], undefined)
  ])
  const reads: Array<EnvironmentRead> = []
  const found = (node: ts.Node, read: string) =>
    reads.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, read })

  /** `process`, `globalThis.process`, or a name bound to the `node:process` module. */
  const isProcess = (node: ts.Expression): boolean =>
    ts.isIdentifier(node)
      ? processNames.has(node.text)
      : ts.isPropertyAccessExpression(node) && node.name.text === "process"

  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const module = moduleOf(node)
      if (module === "effect/Config") found(node, `import from "effect/Config"`)
      const bindings = node.importClause?.namedBindings
      if (
        processModules.includes(module) &&
        bindings !== undefined &&
        ts.isNamedImports(bindings) &&
        bindings.elements.some((element) => (element.propertyName ?? element.name).text === "env")
      )
        found(node, `env from "${module}"`)
      return
    }
    if (ts.isPropertyAccessExpression(node)) {
      const { expression, name } = node
      if (name.text === "env" && isProcess(expression)) found(node, "process.env")
      if (ts.isIdentifier(expression)) {
        if (configNames.has(expression.text) && !configMembersThatReadNothing.has(name.text))
          found(node, `Config.${name.text}`)
        if (providerNames.has(expression.text) && providersFromFiles.has(name.text))
          found(node, `ConfigProvider.${name.text}`)
        if (
          providerNames.has(expression.text) &&
          name.text === "fromEnv" &&
          !(ts.isCallExpression(node.parent) && hasOwnEnv(node.parent.arguments[0]))
        )
          found(node, "ConfigProvider.fromEnv() of the process's environment")
      }
    }
    if (
      ts.isElementAccessExpression(node) &&
      isProcess(node.expression) &&
      ts.isStringLiteralLike(node.argumentExpression) &&
      node.argumentExpression.text === "env"
    )
      found(node, "process.env")
    if (
      ts.isVariableDeclaration(node) &&
      ts.isObjectBindingPattern(node.name) &&
      node.initializer !== undefined &&
      isProcess(node.initializer) &&
      node.name.elements.some((element) => propertyName(element.propertyName ?? element.name) === "env")
    )
      found(node, "process.env")
    ts.forEachChild(node, visit)
  }
  visit(file)
  return reads
}
