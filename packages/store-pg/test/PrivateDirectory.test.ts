/**
 * The private data directory: created 0700 (with its missing parents), tightened to 0700 when it is
 * ours and looser, and refused when another user owns it and others may enter it.
 */
import { chmod, chown, mkdir, stat, writeFile } from "node:fs/promises"
import { join, relative } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PrivateDirectory } from "../src/index.js"
import { temporaryDirectory } from "./temporaryDirectory.js"

const modeOf = (path: string) => Effect.promise(() => stat(path)).pipe(Effect.map((s) => s.mode & 0o777))

/** Only root can hand a directory to another user. */
const isRoot = process.getuid?.() === 0
const nobody = 65534

describe("PrivateDirectory.ensure", () => {
  it.live("creates a missing directory, and its missing parents, with mode 0700", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const root = yield* temporaryDirectory
        const parent = join(root, "a")
        const directory = join(parent, "b", "data")
        expect(yield* PrivateDirectory.ensure(directory)).toBe(directory)
        expect(yield* modeOf(directory)).toBe(0o700)
        expect(yield* modeOf(parent)).toBe(0o700)
        // Again: nothing changes.
        expect(yield* PrivateDirectory.ensure(directory)).toBe(directory)
        expect(yield* modeOf(directory)).toBe(0o700)
      })
    )
  )

  it.live("yields the absolute path of a relative directory", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const target = join(yield* temporaryDirectory, "relative")
        expect(yield* PrivateDirectory.ensure(relative(process.cwd(), target))).toBe(target)
        expect(yield* modeOf(target)).toBe(0o700)
      })
    )
  )

  it.live("tightens an existing directory of ours that others may enter", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const directory = join(yield* temporaryDirectory, "loose")
        yield* Effect.promise(() => mkdir(directory))
        for (const loose of [0o755, 0o777, 0o711, 0o750, 0o500]) {
          yield* Effect.promise(() => chmod(directory, loose))
          yield* PrivateDirectory.ensure(directory)
          expect(yield* modeOf(directory)).toBe(0o700)
        }
      })
    )
  )

  it.live("fails when something else than a directory is there", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const root = yield* temporaryDirectory
        const file = join(root, "file")
        yield* Effect.promise(() => writeFile(file, "x"))
        const error = yield* Effect.flip(PrivateDirectory.ensure(file))
        expect(error._tag).toBe("PrivateDirectoryError")
        expect(error.message).toContain(`The directory ${file} cannot be made private`)
      })
    )
  )

  it.live.runIf(isRoot)(
    "refuses a directory of another user that others may enter, and leaves one closed to them as it is",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const directory = join(yield* temporaryDirectory, "foreign")
          yield* Effect.promise(() => mkdir(directory))
          yield* Effect.promise(() => chown(directory, nobody, nobody))
          yield* Effect.promise(() => chmod(directory, 0o755))
          const error = yield* Effect.flip(PrivateDirectory.ensure(directory))
          expect(error.message).toContain(`belongs to another user (uid ${nobody}) and others may enter it`)
          expect(yield* modeOf(directory)).toBe(0o755)

          yield* Effect.promise(() => chmod(directory, 0o700))
          expect(yield* PrivateDirectory.ensure(directory)).toBe(directory)
          expect(yield* modeOf(directory)).toBe(0o700)
        })
      )
  )
})
