/**
 * The API process's entry: refuses a Node older than the apps run on with one line (see
 * `RequiredNode`), limits the heap's growth (see `HeapGrowth`), turns Node's compile cache on in the
 * configured data directory (see `CompileCache`; `configuredDataDirectory` reads the variable without
 * loading the rest of the configuration), then loads and runs the process itself (`ApiProcess`).
 * Everything but this file and the import-free modules it names is loaded after, so that an older Node
 * reads the line instead of failing on an import, the bundle is compiled through the cache and every
 * heap growth step is limited.
 */
import { configuredDataDirectory } from "@petstore/app-config/DataDirectory"
import { exitUnlessSupportedNode } from "@petstore/app-config/RequiredNode"
import { enablePrivateCompileCache } from "./CompileCache.js"
import { limitHeapGrowth } from "./HeapGrowth.js"

exitUnlessSupportedNode()
// Everything the API writes (the data directory, its database, the CA's files, the compile cache that
// Node makes below) is its user's alone: the umask says so before anything is written.
process.umask(process.umask(0o077) | 0o077)
limitHeapGrowth()
enablePrivateCompileCache(configuredDataDirectory())

await import("./ApiProcess.js")
