/**
 * The API process's entry: limits the heap's growth (see `HeapGrowth`), turns Node's compile cache
 * on (see `CompileCache`), then loads and runs the process itself (`ApiProcess`). Everything but this
 * file is loaded after, so that the bundle is compiled through the cache and every heap growth step
 * is limited.
 */
import { enablePrivateCompileCache } from "./CompileCache.js"
import { dataDirectoryVariable, defaultDataDirectory } from "./DataDirectory.js"
import { limitHeapGrowth } from "./HeapGrowth.js"

limitHeapGrowth()
enablePrivateCompileCache(process.env[dataDirectoryVariable] || defaultDataDirectory)

await import("./ApiProcess.js")
