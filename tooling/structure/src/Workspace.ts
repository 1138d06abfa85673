/**
 * The structure checks `pnpm lint` runs beside dependency-cruiser, on a workspace laid out like this
 * repository (`packages/*`, `apps/*`):
 *
 * - `feature-package-at-most-1000-lines-of-source`: a feature package's `src` (its published test
 *   support included) has at most 1,000 lines of source, and
 * - `feature-file-at-most-300-lines-of-source`: no file of it has more than 300 (architecture rule 1:
 *   each package small enough to read in one sitting). A line of source is a non-blank line that is not
 *   a comment (`LinesOfSource.ts`); a failure reports that count and the count of all lines.
 * - `environment-read-only-in-apps-config`: no `packages/*\/src` or `apps/*\/src` but `apps/config/src`
 *   reads the environment (`EnvironmentReads.ts`; architecture rule 4: configuration is read only in
 *   `apps/config`).
 *
 * The feature packages are those of `tooling/structure/features.json`.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { environmentReadsOf } from "./EnvironmentReads.ts"
import { readFeatureTable } from "./FeatureTable.ts"
import { countLines, type LineCount } from "./LinesOfSource.ts"

const limits = { package: 1_000, file: 300 }

export interface Failure {
  /** The file or folder, relative to the workspace's root, and the line when there is one. */
  readonly where: string
  readonly rule: string
  /** What is wrong and what to do. */
  readonly message: string
}

interface FeatureSize extends LineCount {
  readonly feature: string
  /** Each file of its `src`, relative to the package. */
  readonly files: ReadonlyArray<LineCount & { readonly file: string }>
}

export interface Report {
  readonly failures: ReadonlyArray<Failure>
  readonly sizes: ReadonlyArray<FeatureSize>
  /** How many sources were searched for environment reads. */
  readonly searched: number
}

const isSource = (file: string) => /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(file) && !file.endsWith(".d.ts")

/** The source files under a folder, relative to it, sorted; none if there is no such folder. */
const sourcesUnder = (folder: string): ReadonlyArray<string> =>
  existsSync(folder)
    ? readdirSync(folder, { recursive: true, encoding: "utf8" })
        .map((file) => file.split("\\").join("/"))
        .filter(isSource)
        .sort()
    : []

const directoriesUnder = (folder: string): ReadonlyArray<string> =>
  existsSync(folder)
    ? readdirSync(folder, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map(({ name }) => name)
        .sort()
    : []

const counted = ({ source, all }: LineCount) =>
  `${source.toLocaleString("en")} lines of source (non-blank lines that are not comments; ${all.toLocaleString("en")} lines in all)`

const sizeOf = (root: string, feature: string): FeatureSize => {
  const sourceRoot = join(root, "packages", feature, "src")
  const files = sourcesUnder(sourceRoot).map((file) => ({
    file: `src/${file}`,
    ...countLines(readFileSync(join(sourceRoot, file), "utf8"), file)
  }))
  return {
    feature,
    files,
    source: files.reduce((sum, { source }) => sum + source, 0),
    all: files.reduce((sum, { all }) => sum + all, 0)
  }
}

const sizeFailures = (size: FeatureSize): ReadonlyArray<Failure> => [
  ...(size.source > limits.package
    ? [
        {
          where: `packages/${size.feature}/src`,
          rule: "feature-package-at-most-1000-lines-of-source",
          message: `${counted(size)}, over the ${limits.package.toLocaleString("en")} a feature package may have (architecture rule 1: small enough to read in one sitting). Split it into feature packages a newcomer finds by name, or move what is not this feature's to the package it belongs to; a new package is one line in tooling/structure/features.json.`
        }
      ]
    : []),
  ...size.files
    .filter(({ source }) => source > limits.file)
    .map((file) => ({
      where: `packages/${size.feature}/${file.file}`,
      rule: "feature-file-at-most-300-lines-of-source",
      message: `${counted(file)}, over the ${limits.file} a file of a feature package may have (architecture rule 1). Split the module by what its parts do, and export the parts from the package's index as before.`
    }))
]

/** The sources that may not read the environment: every package's and app's but apps/config's. */
const sourcesThatReadNoEnvironment = (root: string): ReadonlyArray<string> =>
  ["packages", "apps"].flatMap((kind) =>
    directoriesUnder(join(root, kind))
      .filter((name) => !(kind === "apps" && name === "config"))
      .flatMap((name) =>
        sourcesUnder(join(root, kind, name, "src")).map((file) => `${kind}/${name}/src/${file}`)
      )
  )

const environmentFailures = (root: string, files: ReadonlyArray<string>): ReadonlyArray<Failure> =>
  files.flatMap((file) =>
    environmentReadsOf(readFileSync(join(root, file), "utf8"), file).map(({ line, read }) => ({
      where: `${file}:${line}`,
      rule: "environment-read-only-in-apps-config",
      message: `reads the environment (${read}); configuration is read only in apps/config/src (architecture rule 4). Read it there with effect's Config, decoded once, and give the value to this code as a parameter or a layer's input.`
    }))
  )

/** Checks the workspace at `root`. */
export const checkWorkspace = (root: string): Report => {
  const sizes = Object.keys(readFeatureTable(root).features).map((feature) => sizeOf(root, feature))
  const files = sourcesThatReadNoEnvironment(root)
  return {
    failures: [...sizes.flatMap(sizeFailures), ...environmentFailures(root, files)],
    sizes,
    searched: files.length
  }
}

/** A failure as `pnpm lint` prints it: where, the rule, what is wrong and what to do. */
export const describeFailure = ({ message, rule, where }: Failure): string => `${where}: ${rule}: ${message}`

/** The line `pnpm lint` prints when every check passes. */
export const describeSuccess = ({ searched, sizes }: Report): string => {
  const largest = [...sizes].sort((a, b) => b.source - a.source)[0]
  const largestFile = sizes
    .flatMap(({ feature, files }) => files.map((file) => ({ ...file, feature })))
    .sort((a, b) => b.source - a.source)[0]
  return [
    `✔ structure: ${sizes.length} feature packages within ${limits.package.toLocaleString("en")} lines of source and files within ${limits.file}`,
    ...(largest === undefined ? [] : [`largest packages/${largest.feature}/src, ${counted(largest)}`]),
    ...(largestFile === undefined
      ? []
      : [`largest file packages/${largestFile.feature}/${largestFile.file}, ${counted(largestFile)}`]),
    `no environment read in ${searched} sources outside apps/config/src`
  ].join("; ")
}
