/**
 * The contract carries no server code, so another team can depend on it for a client: its sources
 * import only the feature packages, `effect`'s core and `HttpApi` modules and its HTTP client (the
 * server's request type only as a type), and it depends on nothing else. The feature packages are the
 * repository's one table of them (`tooling/structure/features.json`), which the lint reads too.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"

const packageRoot = fileURLToPath(new URL("..", import.meta.url))
const sourceFolder = join(packageRoot, "src")
const featureTable = JSON.parse(
  readFileSync(new URL("../../../tooling/structure/features.json", import.meta.url), "utf8")
) as { readonly features: Readonly<Record<string, ReadonlyArray<string>>> }
const featurePackages = Object.keys(featureTable.features).map((name) => `@petstore/${name}`)

interface Import {
  readonly file: string
  readonly specifier: string
  readonly typeOnly: boolean
}

const importsOf = (file: string): ReadonlyArray<Import> =>
  [
    ...readFileSync(join(sourceFolder, file), "utf8").matchAll(
      /^(import|export)(\s+type)?\b[^;]*?\bfrom\s+"([^"]+)"/gms
    )
  ].map((match) => ({ file, specifier: match[3] ?? "", typeOnly: match[2] !== undefined }))

const allowed = [
  /^\.\//,
  /^effect$/,
  /^effect\/(Function|http-api\/\w+|http\/HttpClient|http\/HttpClientRequest)$/,
  ...featurePackages.map((name) => new RegExp(`^${name}$`))
]
/** Types describe what the middleware hand to a server's handlers; they bring no code in. */
const allowedAsTypes = [/^effect\/http\/\w+$/]

describe("@petstore/api", () => {
  const imports = readdirSync(sourceFolder)
    .filter((file) => file.endsWith(".ts"))
    .flatMap(importsOf)

  it("imports no server, Node or adapter module", () => {
    expect(imports.length).toBeGreaterThan(0)
    const refused = imports.filter(
      ({ specifier, typeOnly }) =>
        !allowed.some((pattern) => pattern.test(specifier)) &&
        !(typeOnly && allowedAsTypes.some((pattern) => pattern.test(specifier)))
    )
    expect(refused).toStrictEqual([])
  })

  it("depends on feature packages only, with effect a peer", () => {
    const manifest = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as {
      readonly dependencies: Readonly<Record<string, string>>
      readonly peerDependencies: Readonly<Record<string, string>>
    }
    const dependencies = Object.keys(manifest.dependencies)
    expect(dependencies.length).toBeGreaterThan(0)
    expect(dependencies.filter((name) => !featurePackages.includes(name))).toStrictEqual([])
    // The contract's bodies are the catalogue's and the custom domains' schemas, never their use cases.
    expect(dependencies).not.toContain("@petstore/custom-domains")
    expect(Object.keys(manifest.peerDependencies)).toStrictEqual(["effect"])
  })
})
