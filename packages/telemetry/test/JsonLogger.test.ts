/**
 * The apps' log lines: byte for byte what Effect's `formatStructured` + `formatJson` wrote before
 * (with `level` named `logLevel`), whatever is logged; written to a real process's stdout in one
 * write per event-loop turn, in order; and all there when the process exits right after logging,
 * however it exits (short of SIGKILL), even with a reader behind.
 */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Formatter, Logger, Redacted, References, Tracer } from "effect"
import { TestClock, TestConsole } from "effect/testing"
import { JsonLogger } from "../src/index.js"

/** The logger the apps had: Effect's structured entry, serialised by `Formatter.formatJson`. */
const previousFormat = Logger.map(Logger.formatStructured, (entry) =>
  Formatter.formatJson({
    message: entry.message,
    logLevel: entry.level,
    timestamp: entry.timestamp,
    cause: entry.cause,
    annotations: entry.annotations,
    spans: entry.spans,
    fiberId: entry.fiberId
  })
)

/** The lines `JsonLogger.layer` hands to the fiber's console (here the test's `TestConsole`). */
const linesOf = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function* () {
    yield* Effect.provide(effect, JsonLogger.layer)
    return yield* TestConsole.logLines
  })

/** Each line as `JsonLogger.formatLine` and the previous logger write it, from the same call. */
const bothFormats = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.sync(() => {
    const pairs: Array<{ readonly line: string; readonly previous: string }> = []
    const layer = Logger.layer([
      Logger.make((options) => {
        pairs.push({ line: JsonLogger.formatLine(options), previous: previousFormat.log(options) })
      })
    ])
    return { pairs, run: Effect.provide(effect, layer) }
  })

const requestFields = { requestId: "r-1", method: "GET", path: "/v1/pets", status: 200, durationMs: 1.5 }

describe("JsonLogger line shape", () => {
  it.effect("a plain message", () =>
    Effect.gen(function* () {
      const fiberId = yield* Effect.fiberId
      const lines = yield* linesOf(Effect.logInfo("hello"))
      expect(lines).toEqual([
        `{"message":"hello","logLevel":"INFO","timestamp":"1970-01-01T00:00:00.000Z","annotations":{},"spans":{},"fiberId":"#${fiberId}"}`
      ])
    })
  )

  it.effect("the request line's annotations, in the order they were given", () =>
    Effect.gen(function* () {
      const fiberId = yield* Effect.fiberId
      const lines = yield* linesOf(Effect.logInfo("request").pipe(Effect.annotateLogs(requestFields)))
      expect(lines).toEqual([
        `{"message":"request","logLevel":"INFO","timestamp":"1970-01-01T00:00:00.000Z","annotations":{"requestId":"r-1","method":"GET","path":"/v1/pets","status":200,"durationMs":1.5},"spans":{},"fiberId":"#${fiberId}"}`
      ])
    })
  )

  it.effect("spans, as milliseconds since each started", () =>
    Effect.gen(function* () {
      const fiberId = yield* Effect.fiberId
      const lines = yield* linesOf(
        Effect.gen(function* () {
          yield* TestClock.adjust("25 millis")
          yield* Effect.logWarning("slow").pipe(Effect.withLogSpan("query"))
        }).pipe(Effect.withLogSpan("request"))
      )
      expect(lines).toEqual([
        `{"message":"slow","logLevel":"WARN","timestamp":"1970-01-01T00:00:00.025Z","annotations":{},"spans":{"query":0,"request":25},"fiberId":"#${fiberId}"}`
      ])
    })
  )

  it.effect("a failure's cause, rendered by Effect, between the timestamp and the annotations", () =>
    Effect.gen(function* () {
      const fiberId = yield* Effect.fiberId
      const cause = Cause.fail(new Error("the database is gone"))
      const lines = yield* linesOf(Effect.logError("petstore stopped", cause))
      expect(lines).toHaveLength(1)
      const line = String(lines[0])
      expect(line).toBe(
        `{"message":"petstore stopped","logLevel":"ERROR","timestamp":"1970-01-01T00:00:00.000Z","cause":${JSON.stringify(Cause.pretty(cause))},"annotations":{},"spans":{},"fiberId":"#${fiberId}"}`
      )
      expect(JSON.parse(line).cause).toMatch(/^Error: the database is gone\n {4}at /)
    })
  )

  it.effect("non-string messages: an object, several values", () =>
    Effect.gen(function* () {
      const fiberId = yield* Effect.fiberId
      const lines = yield* linesOf(
        Effect.gen(function* () {
          yield* Effect.logInfo({ user: "ada", pets: 2 })
          yield* Effect.logInfo("listening on", 8080, true)
        })
      )
      const tail = `"logLevel":"INFO","timestamp":"1970-01-01T00:00:00.000Z","annotations":{},"spans":{},"fiberId":"#${fiberId}"}`
      expect(lines).toEqual([
        `{"message":{"user":"ada","pets":2},${tail}`,
        `{"message":["listening on",8080,true],${tail}`
      ])
    })
  )

  it.effect("is the previous logger's line, byte for byte, for anything logged", () =>
    Effect.gen(function* () {
      class WithToJson {
        toJSON() {
          return { custom: true }
        }
      }
      const circular: Record<string, unknown> = { name: "loop" }
      circular.self = circular
      const { pairs, run } = yield* bothFormats(
        Effect.gen(function* () {
          yield* Effect.log("plain")
          yield* Effect.log()
          yield* Effect.log("a", 1, true, null)
          yield* Effect.log(undefined)
          yield* Effect.log("x", undefined)
          yield* Effect.log(Number.NaN, Number.POSITIVE_INFINITY, -0, 1e21)
          yield* Effect.log(10n)
          yield* Effect.log(new Error("an error", { cause: "why" }))
          yield* Effect.log(Redacted.make("s3cret"))
          yield* Effect.log(new WithToJson(), circular, [1, [2, { three: 3 }]])
          yield* Effect.log(Symbol.for("sym"), () => 1)
          yield* Effect.log(new Date(0), 'with "quotes", \n newlines, \u2028 and \ud800')
          yield* Effect.logInfo("request").pipe(Effect.annotateLogs(requestFields))
          yield* Effect.log("odd annotations").pipe(
            Effect.annotateLogs({
              object: { a: 1 },
              big: 1n,
              date: new Date(0),
              secret: Redacted.make("s3cret"),
              missing: undefined,
              nan: Number.NaN,
              "2": "two",
              "1": "one",
              "": "empty"
            }),
            Effect.annotateLogs("__proto__", "not a prototype")
          )
          yield* Effect.log("scalar odd keys").pipe(
            Effect.annotateLogs({ "2": "two", "1": 1, "": true, toJSON: "a string", nothing: null }),
            Effect.annotateLogs("__proto__", "not a prototype")
          )
          yield* Effect.log("spans").pipe(
            Effect.withLogSpan("__proto__"),
            Effect.withLogSpan("2"),
            Effect.withLogSpan("outer"),
            Effect.withLogSpan("outer")
          )
          yield* Effect.logError("failed", Cause.fail("a string failure"))
          yield* Effect.logError(Cause.die(new TypeError("a defect")))
          yield* Effect.logWarning("interrupted", Cause.interrupt(7))
          for (const level of ["Fatal", "Error", "Warn", "Info", "Debug", "Trace"] as const)
            yield* Effect.logWithLevel(level)(`at ${level}`)
          // Timestamps across seconds, backwards, before 1970 and past 9999 (the ISO text is cached per second).
          for (const time of [
            1_700_000_000_998, 1_700_000_000_999, 1_700_000_001_000, 1_700_000_001_007, 1_700_000_000_042, -1,
            -1_000, -999, 253_402_300_800_001
          ]) {
            yield* TestClock.setTime(time)
            yield* Effect.log(`at ${time}`)
          }
        }).pipe(Effect.provideService(References.MinimumLogLevel, "All"))
      )
      yield* run
      expect(pairs.length).toBe(34)
      for (const { line, previous } of pairs) expect(line).toBe(previous)
      expect(pairs.map(({ line }) => JSON.parse(line).timestamp).slice(-4)).toEqual([
        "1969-12-31T23:59:59.999Z",
        "1969-12-31T23:59:59.000Z",
        "1969-12-31T23:59:59.001Z",
        "+010000-01-01T00:00:00.001Z"
      ])
      expect(pairs.map(({ line }) => JSON.parse(line).logLevel).slice(-15, -9)).toEqual([
        "FATAL",
        "ERROR",
        "WARN",
        "INFO",
        "DEBUG",
        "TRACE"
      ])
    })
  )

  it.effect("writes nothing below the minimum log level, as Effect decides before any logger runs", () =>
    Effect.gen(function* () {
      const hidden = yield* linesOf(
        Effect.logDebug("hidden").pipe(Effect.provideService(References.MinimumLogLevel, "Info"))
      )
      expect(hidden).toEqual([])
      const shown = yield* linesOf(
        Effect.logDebug("shown").pipe(Effect.provideService(References.MinimumLogLevel, "Debug"))
      )
      expect(shown.map((line) => JSON.parse(String(line)).logLevel)).toEqual(["DEBUG"])
    })
  )

  it.effect("still makes each line an event of the current span", () =>
    Effect.gen(function* () {
      const span = yield* Effect.currentSpan.pipe(
        Effect.tap(() => Effect.logInfo("request").pipe(Effect.annotateLogs({ status: 200 }))),
        Effect.withSpan("GET /v1/pets"),
        Effect.provide(JsonLogger.layer)
      )
      expect(span).toBeInstanceOf(Tracer.NativeSpan)
      const events = span instanceof Tracer.NativeSpan ? span.events : []
      expect(
        events.map(([name, , attributes]) => [name, attributes.status, attributes["effect.logLevel"]])
      ).toEqual([["request", 200, "INFO"]])
    })
  )
})

// ---------------------------------------------------------------------------------------------------
// A real process's stdout.

const childScript = fileURLToPath(new URL("./support/LoggingChild.ts", import.meta.url))

interface ChildRun {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly lines: ReadonlyArray<Record<string, unknown>>
  readonly stdout: string
  readonly stderr: string
  /** Writes to stdout, as the child counted them. */
  readonly writes: number
}

interface ChildOptions {
  /** Acts on the child as its stdout arrives. */
  readonly whenStdout?: (stdout: string, signal: (name: NodeJS.Signals) => void) => void
  /** Reads nothing of its stdout for this long: the pipe fills and the child must wait. */
  readonly readerLateMs?: number
}

/** Runs `LoggingChild.ts <mode>` and collects what it wrote. */
const runChild = (mode: string, options: ChildOptions = {}) =>
  Effect.callback<ChildRun>((resume) => {
    const child = spawn(process.execPath, ["--disable-warning=ExperimentalWarning", childScript, mode], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk
      options.whenStdout?.(stdout, (name) => child.kill(name))
    })
    if (options.readerLateMs !== undefined) {
      child.stdout.pause()
      setTimeout(() => child.stdout.resume(), options.readerLateMs)
    }
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk
    })
    child.once("close", (code, signal) => {
      const lines = stdout
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>)
      const writes = Number(/writes=(\d+)/.exec(stderr)?.[1] ?? Number.NaN)
      resume(Effect.succeed({ code, signal, lines, stdout, stderr, writes }))
    })
    return Effect.sync(() => child.kill("SIGKILL"))
  })

const messages = (run: ChildRun) => run.lines.map((line) => line.message)

describe("JsonLogger in a process", () => {
  it.effect("a program that ends: its lines of one turn in one write", () =>
    Effect.gen(function* () {
      const run = yield* runChild("end")
      expect(run.code, run.stderr).toBe(0)
      expect(messages(run)).toEqual(["one", "two", "three"])
      expect(run.lines.map((line) => line.logLevel)).toEqual(["INFO", "WARN", "ERROR"])
      expect(run.writes).toBe(1)
      expect(run.stdout.endsWith("\n")).toBe(true)
    })
  )

  it.effect("a write per turn that logged", () =>
    Effect.gen(function* () {
      const run = yield* runChild("turns")
      expect(run.code, run.stderr).toBe(0)
      expect(messages(run)).toEqual(["first turn", "second turn"])
      expect(run.writes).toBe(2)
    })
  )

  it.effect("process.exit in the turn that logged: the batch is written on the way out", () =>
    Effect.gen(function* () {
      const run = yield* runChild("exit")
      expect(run.code, run.stderr).toBe(0)
      expect(messages(run)).toEqual(["one", "two", "three"])
      expect(run.writes).toBe(1)
    })
  )

  it.effect("570 KB in one turn, then process.exit, to a reader that is late: every line, in order", () =>
    Effect.gen(function* () {
      const run = yield* runChild("overflow", { readerLateMs: 500 })
      expect(run.code, run.stderr).toBe(0)
      expect(messages(run)).toEqual(Array.from({ length: 3_000 }, (_, i) => `line ${i} ${"x".repeat(60)}`))
      expect(run.writes).toBeGreaterThan(1)
      expect(run.writes).toBeLessThanOrEqual(Math.ceil(run.stdout.length / (64 * 1024)))
    })
  )

  it.effect("an uncaught exception before the turn ends: the line is still written", () =>
    Effect.gen(function* () {
      const run = yield* runChild("uncaught")
      expect(run.code).toBe(1)
      expect(run.stderr).toContain("nobody catches this")
      expect(messages(run)).toEqual(["before the exception"])
    })
  )

  it.effect("SIGTERM: what the shutdown logs is written before the process exits", () =>
    Effect.gen(function* () {
      let signalled = false
      const run = yield* runChild("sigterm", {
        whenStdout: (stdout, signal) => {
          if (!signalled && stdout.includes('"started"')) {
            signalled = true
            signal("SIGTERM")
          }
        }
      })
      expect(signalled).toBe(true)
      expect({ code: run.code, signal: run.signal }, run.stderr).toEqual({ code: 0, signal: null })
      expect(messages(run)).toEqual(["started", "stopping"])
    })
  )

  it.effect("a main effect that fails: its last line is written before the exit code 1", () =>
    Effect.gen(function* () {
      const run = yield* runChild("failure")
      expect(run.code, run.stderr).toBe(1)
      expect(run.lines.map((line) => [line.message, line.logLevel])).toEqual([["stopped", "ERROR"]])
      expect(run.writes).toBe(1)
    })
  )
})
