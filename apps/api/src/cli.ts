/**
 * The key CLI's entry (`petstore keys …`, see `CliProcess`): refuses a Node older than the apps run
 * on with one line (see `RequiredNode`) before anything else is loaded, then runs the command.
 */
import { exitUnlessSupportedNode } from "@petstore/app-config/RequiredNode"

exitUnlessSupportedNode()

await import("./CliProcess.js")
