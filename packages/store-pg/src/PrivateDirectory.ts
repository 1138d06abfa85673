/**
 * A directory only its owner can enter, for what petstore keeps on disk: the embedded database, the
 * generated secret, the certificate authority's files. Whoever creates the directory first (the API,
 * the worker, the CLI) makes it 0700, and one made earlier with a looser mode is tightened.
 *
 * The files inside are private too (`restrictTree`: files 0600, directories 0700). PGlite sets the
 * modes of the database files it unpacks to 0666 itself, whatever the umask, and creates later ones
 * through the umask, which `privateUmask` makes 0077 for this process.
 */
import { constants } from "node:fs"
import { chmod, lstat, mkdir, open, readdir } from "node:fs/promises"
import { join, resolve } from "node:path"
import { Thrown } from "@petstore/thrown"
import { Data, Effect } from "effect"

export class PrivateDirectoryError extends Data.TaggedError("PrivateDirectoryError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

/** The mode of a private directory: its owner may do anything, nobody else anything. */
export const mode = 0o700

/** The mode of a private file: its owner may read and write it, nobody else anything. */
export const fileMode = 0o600

/**
 * Makes every file this process creates from now on private to its user (a umask of at least 0077,
 * any stricter bit kept); yields the umask it replaced. The umask is the process's: it only ever
 * gets stricter here, and a process that keeps nothing but private files loses nothing by it.
 */
export const privateUmask: Effect.Effect<number> = Effect.sync(() => {
  const previous = process.umask(0o077)
  if ((previous | 0o077) !== 0o077) process.umask(previous | 0o077)
  return previous
})

const restrictNow = async (directory: string): Promise<void> => {
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name)
    // Never through a link: what it points to is not ours to change.
    const stat = await lstat(path)
    if (stat.isSymbolicLink()) continue
    if (stat.isDirectory()) {
      if ((stat.mode & 0o777) !== mode) await chmod(path, mode)
      await restrictNow(path)
    } else if ((stat.mode & 0o077) !== 0) {
      await chmod(path, stat.mode & fileMode)
    }
  }
}

/**
 * Takes every permission of others and of the group from what lies under `directory` (files keep
 * at most 0600, directories become 0700), without following links.
 */
export const restrictTree = (directory: string): Effect.Effect<void, PrivateDirectoryError> =>
  Effect.tryPromise({
    try: () => (process.platform === "win32" ? Promise.resolve() : restrictNow(resolve(directory))),
    catch: (cause) =>
      new PrivateDirectoryError({
        message: `The files under ${resolve(directory)} cannot be made private: ${Thrown.messageOf(cause)}`,
        cause
      })
  })

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
