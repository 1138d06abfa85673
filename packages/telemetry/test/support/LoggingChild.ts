/**
 * A process that logs through `JsonLogger.layer` and then ends one way or another, for the tests that
 * read its stdout. Run by Node itself (type stripping), so it imports the logger's source by URL.
 * Each write to stdout (`fs.writeSync(1, …)`, what the logger writes with) is counted and the count
 * is said on stderr when the process exits, after the logger's own exit handler (registered first,
 * on the first line) has written what it held.
 *
 * `node LoggingChild.ts <mode>`, where mode is one of:
 * - `end`: three lines in one turn, then the program simply ends.
 * - `turns`: one line, a turn later another one.
 * - `exit`: three lines, then `process.exit(0)` in the same turn.
 * - `overflow`: 3,000 numbered lines of about 190 bytes in one turn, then `process.exit(0)`.
 * - `uncaught`: a line, then an exception nobody catches, before the turn ends.
 * - `sigterm`: runs like the apps (`Runtime.makeRunMain` as `NodeRuntime.runMain` does it): logs
 *   `started`, waits; SIGTERM interrupts it, it logs `stopping` while shutting down and exits 0.
 * - `failure`: like the apps, a main effect that logs and fails: exit code 1 from the teardown.
 */
import Fs from "node:fs"
import { syncBuiltinESMExports } from "node:module"
import { Cause, Effect, Exit, Runtime } from "effect"

const writeSync = Fs.writeSync
let writes = 0
// Counts the logger's writes: patched before the logger is imported, seen by its `node:fs` import.
Fs.writeSync = new Proxy(writeSync, {
  apply: (write, self, args) => {
    if (args[0] === 1) writes++
    return Reflect.apply(write, self, args)
  }
})
syncBuiltinESMExports()

const JsonLogger: typeof import("../../src/JsonLogger.js") = await import(
  new URL("../../src/JsonLogger.ts", import.meta.url).href
)

const logAll = (effect: Effect.Effect<void>) => Effect.runSync(Effect.provide(effect, JsonLogger.layer))

const threeLines = Effect.gen(function* () {
  yield* Effect.logInfo("one")
  yield* Effect.logWarning("two").pipe(Effect.annotateLogs({ n: 2 }))
  yield* Effect.logError("three")
})

/** What `NodeRuntime.runMain` does with the apps' teardown (no platform-node here). */
const runMain = Runtime.makeRunMain(({ fiber, teardown }) => {
  const onSignal = () => fiber.interruptUnsafe(fiber.id)
  fiber.addObserver((exit) => {
    process.removeListener("SIGTERM", onSignal)
    teardown(exit, (code) => process.exit(code))
  })
  process.on("SIGTERM", onSignal)
})

const teardown: Runtime.Teardown = (exit, onExit) =>
  onExit(Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause) ? 0 : 1)

// Registered after the logger's own handler (the first line installs it), so it runs after it.
const reportWritesAtExit = () =>
  process.on("exit", () => {
    writeSync(2, `writes=${writes}\n`)
  })

const mode = process.argv[2]
switch (mode) {
  case "end": {
    logAll(threeLines)
    reportWritesAtExit()
    break
  }
  case "turns": {
    logAll(Effect.logInfo("first turn"))
    reportWritesAtExit()
    setTimeout(() => logAll(Effect.logInfo("second turn")), 10)
    break
  }
  case "exit": {
    logAll(threeLines)
    reportWritesAtExit()
    process.exit(0)
    break
  }
  case "overflow": {
    logAll(
      Effect.gen(function* () {
        for (let i = 0; i < 3_000; i++) yield* Effect.logInfo(`line ${i} ${"x".repeat(60)}`)
      })
    )
    reportWritesAtExit()
    process.exit(0)
    break
  }
  case "uncaught": {
    logAll(Effect.logInfo("before the exception"))
    reportWritesAtExit()
    process.nextTick(() => {
      throw new Error("nobody catches this")
    })
    break
  }
  case "sigterm": {
    runMain(
      Effect.gen(function* () {
        yield* Effect.logInfo("started")
        reportWritesAtExit()
        return yield* Effect.never
      }).pipe(
        Effect.onInterrupt(() => Effect.logInfo("stopping")),
        Effect.provide(JsonLogger.layer)
      ),
      { disableErrorReporting: true, teardown }
    )
    break
  }
  case "failure": {
    runMain(
      Effect.fail(new Error("cannot go on")).pipe(
        Effect.tapCause(() => Effect.logError("stopped")),
        Effect.ensuring(Effect.sync(reportWritesAtExit)),
        Effect.provide(JsonLogger.layer)
      ),
      { disableErrorReporting: true, teardown }
    )
    break
  }
  default:
    writeSync(2, `unknown mode ${mode}\n`)
    process.exitCode = 2
}
