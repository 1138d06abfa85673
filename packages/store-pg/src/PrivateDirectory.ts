/**
 * A directory only its owner can enter, for what petstore keeps on disk: the embedded database, the
 * generated secret, the certificate authority's files. PGlite writes its files readable (and
 * writable) by everyone whatever the umask, so the directory's mode is what keeps other local users
 * out; whoever creates the directory first (the API, the worker, the CLI) makes it 0700, and one made
 * earlier with a looser mode is tightened.
 */
import { constants } from "node:fs"
import { mkdir, open } from "node:fs/promises"
import { resolve } from "node:path"
import { Thrown } from "@petstore/thrown"
import { Data, Effect } from "effect"

export class PrivateDirectoryError extends Data.TaggedError("PrivateDirectoryError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

/** The mode of a private directory: its owner may do anything, nobody else anything. */
export const mode = 0o700

const ensureNow = async (path: string): Promise<void> => {
  // Parents created on the way get the same mode; the umask can only make it stricter.
  await mkdir(path, { recursive: true, mode })
  // Windows has no such modes (its ACLs are inherited from the parent directory).
  if (process.platform === "win32") return
  // Checked and changed through one descriptor, so a rename in between cannot redirect the chmod.
  const handle = await open(path, constants.O_RDONLY | constants.O_DIRECTORY)
  try {
    const stat = await handle.stat()
    if ((stat.mode & 0o777) === mode) return
    const owner = process.getuid?.()
    if (owner !== undefined && stat.uid !== owner) {
      if ((stat.mode & 0o077) === 0) return
      throw new Error(
        `it belongs to another user (uid ${stat.uid}) and others may enter it (mode ${(stat.mode & 0o777).toString(8)}); ` +
          `make it the user's own, or run chmod 700 on it`
      )
    }
    await handle.chmod(mode)
  } finally {
    await handle.close()
  }
}

/**
 * Makes `directory` private: creates it (with missing parents) with mode 0700, or sets an existing
 * one of ours to 0700; yields its absolute path. Fails when the directory cannot be created, or
 * belongs to another user and is open to others (it cannot be made private then).
 */
export const ensure = (directory: string): Effect.Effect<string, PrivateDirectoryError> => {
  const path = resolve(directory)
  return Effect.tryPromise({
    try: () => ensureNow(path),
    catch: (cause) =>
      new PrivateDirectoryError({
        message: `The directory ${path} cannot be made private: ${Thrown.messageOf(cause)}`,
        cause
      })
  }).pipe(Effect.as(path))
}
