/**
 * Node's compile cache for the API's bundle, in the data directory. Parsing and compiling the bundle
 * at every start costs time, and leaves about 8 MB of the compiler's working memory with the process
 * for its whole life (the allocator keeps what V8 gave back); code loaded from the cache needs
 * neither. The cache holds code Node will run, so only a directory private to this user is used: one
 * that others could write to would let them run theirs. A directory that does not exist yet (the
 * first start creates it, private) or is not private simply means no cache this time.
 *
 * `module.enableCompileCache` came with Node 22.1: on an older Node (the packages support 20.11 and
 * later) the process starts without the cache. It is looked up on the module's namespace, since a
 * named import of an export the running Node lacks fails the whole bundle before it runs.
 */
import { statSync } from "node:fs"
import * as NodeModule from "node:module"
import { join } from "node:path"

type EnableCompileCache = (directory: string) => unknown

/** Node's `enableCompileCache` where this Node has it. */
const enableCompileCache: EnableCompileCache | undefined = (
  NodeModule as { readonly enableCompileCache?: EnableCompileCache }
).enableCompileCache

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
  if (enableCompileCache !== undefined && isPrivateDirectory(dataDirectory)) {
    enableCompileCache(join(dataDirectory, "compile-cache"))
  }
}
