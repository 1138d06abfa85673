/**
 * The feature packages and what each may import (`tooling/structure/features.json`): the one table
 * `.dependency-cruiser.cjs`, the size check and `packages/kernel/test/Purity.test.ts` read.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"

export interface FeatureTable {
  /** Each feature package by its directory under `packages/`, with the features it may import. */
  readonly features: Readonly<Record<string, ReadonlyArray<string>>>
  /** The small pure libraries (npm packages) a feature may import besides effect. */
  readonly libraries: Readonly<Record<string, ReadonlyArray<string>>>
}

/** The table of the repository at `root`. */
export const readFeatureTable = (root: string): FeatureTable =>
  JSON.parse(readFileSync(join(root, "tooling/structure/features.json"), "utf8")) as FeatureTable
