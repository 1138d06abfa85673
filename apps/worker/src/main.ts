/**
 * The worker process's entry: refuses a Node older than the apps run on with one line (see
 * `RequiredNode`), then loads and runs the process itself (`WorkerProcess`). Nothing else is loaded
 * before the check, so an older Node reads the line instead of failing on an import.
 */
import { exitUnlessSupportedNode } from "@petstore/app-config/RequiredNode"

exitUnlessSupportedNode()
// What the worker writes (the CA's files in the data directory) is its user's alone.
process.umask(process.umask(0o077) | 0o077)

await import("./WorkerProcess.js")
