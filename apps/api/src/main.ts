/**
 * The API process's entry: turns Node's compile cache on (see `CompileCache`), then loads and runs
 * the process itself (`ApiProcess`). Everything but this file is loaded after, so that the bundle is
 * compiled through the cache.
 */
import { enablePrivateCompileCache } from "./CompileCache.js"
import { dataDirectoryVariable, defaultDataDirectory } from "./DataDirectory.js"

enablePrivateCompileCache(process.env[dataDirectoryVariable] || defaultDataDirectory)

await import("./ApiProcess.js")
