/**
 * Vitest global setup: the tests spawn the built api process, so it is built once per run, before
 * any test file starts (never concurrently by two files). Under the repository's test command turbo
 * has built it already (`PETSTORE_PREBUILT=1`).
 */
import { buildApp } from "./BuildApp.js"

export default async function setup(): Promise<void> {
  if (process.env.PETSTORE_PREBUILT === "1") return
  await buildApp()
}
