/**
 * Node's compile cache for the API's bundle, in the data directory. Parsing and compiling the bundle
 * at every start costs time, and leaves about 8 MB of the compiler's working memory with the process
 * for its whole life (the allocator keeps what V8 gave back); code loaded from the cache needs
 * neither. The cache holds code Node will run, so only a directory private to this user is used: one
 * that others could write to would let them run theirs. A directory that does not exist yet (the
 * first start creates it, private) or is not private simply means no cache this time.
 */
import { statSync } from "node:fs"
import { enableCompileCache } from "node:module"
import { join } from "node:path"

const isPrivateDirectory = (path: string): boolean => {
  try {
    const stats = statSync(path)
    return stats.isDirectory() && stats.uid === process.getuid?.() && (stats.mode & 0o077) === 0
  } catch {
    return false
  }
}

/** Caches compiled code under `<dataDirectory>/compile-cache` when the data directory is private. */
export const enablePrivateCompileCache = (dataDirectory: string): void => {
  if (isPrivateDirectory(dataDirectory)) enableCompileCache(join(dataDirectory, "compile-cache"))
}
