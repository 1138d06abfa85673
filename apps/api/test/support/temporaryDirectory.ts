/**
 * A directory under the system's temporary directory, removed with its contents when the scope closes.
 */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, type Scope } from "effect"

export const temporaryDirectory: Effect.Effect<string, never, Scope.Scope> = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "petstore-api-test-"))),
  (directory) => Effect.promise(() => rm(directory, { recursive: true, force: true }))
)
