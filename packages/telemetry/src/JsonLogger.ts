/**
 * One JSON object per log line on stdout, in the shape operators' log pipelines already parse
 * (`message`, `logLevel`, `timestamp`, `cause`, `annotations`, `spans`, `fiberId`): Effect 4's own
 * JSON logger says `level` instead of `logLevel`. Log lines still become span events.
 *
 * Every answered request writes a line, so the logger is on the hot path and costs what it does per
 * line twice over:
 *
 * - Building. A line is `Logger.formatStructured` serialised by `Formatter.formatJson`, byte for byte.
 *   When the message and every annotation are values JSON writes as they are (strings, numbers,
 *   booleans, null), which is every request line, both reduce to one `JSON.stringify` of the same
 *   object, done here directly, without the copies and the per-key replacer. Anything else (objects,
 *   errors, redacted values, bigints, `undefined`…) takes Effect's own path.
 * - Writing. `console.log` goes through `process.stdout` (formatting, a stream's bookkeeping) and
 *   makes one `write` system call per line. Lines are appended to a buffer instead and written with
 *   one `fs.writeSync` per turn of the event loop (`setImmediate`), or as soon as the buffer passes
 *   64 KiB: one system call for all the lines a turn produced. A line therefore reaches stdout at
 *   the end of the turn that logged it, after anything else written to stdout in that turn.
 *
 * Writes are synchronous and complete, and what is buffered is written when the process exits (the
 * `exit` event: the program's end, `process.exit` after a SIGTERM/SIGINT shutdown or a failure, an
 * uncaught exception), so no line is lost when Node gets to run its exit handlers. `process.stdout`
 * would not do: on a pipe it is non-blocking and queues what a full pipe does not take, and
 * `process.exit` drops that queue (measured, `console.log` included, with a reader a little behind).
 * A full pipe makes the process wait for its log reader instead, as pino's synchronous destination
 * does. What can be lost: the lines of the last turn of a process killed without its exit handlers
 * (SIGKILL, a signal nothing handles, the OOM killer, a crash of Node itself), which `console.log` would have written already.
 *
 * The minimum log level needs nothing here: Effect drops a line below it before calling a logger.
 * Where a `Console` other than the process's own is provided (tests' `TestConsole`), lines go to it
 * one `log` call each, as before.
 */
import { writeSync } from "node:fs"
import { Cause, Console, Formatter, Logger, type LogLevel, Predicate, References } from "effect"

const levelLabels: Record<LogLevel.LogLevel, string> = {
  All: "ALL",
  Fatal: "FATAL",
  Error: "ERROR",
  Warn: "WARN",
  Info: "INFO",
  Debug: "DEBUG",
  Trace: "TRACE",
  None: "NONE"
}

// `toISOString` is a third of a line's cost; within one second only the milliseconds change.
let isoSecond = Number.NaN
let isoPrefix = ""

const isoTimestamp = (date: Date): string => {
  const time = date.getTime()
  const second = Math.floor(time / 1000)
  if (second !== isoSecond) {
    const iso = date.toISOString()
    isoSecond = second
    isoPrefix = iso.slice(0, -4)
    return iso
  }
  const millis = time - second * 1000
  return `${isoPrefix}${millis < 10 ? "00" : millis < 100 ? "0" : ""}${millis}Z`
}

/** A value `structuredMessage` and `formatJson` both hand to `JSON.stringify` unchanged. */
const isJsonScalar = (value: unknown): boolean => {
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
      return true
    case "object":
      return value === null
    default:
      return false
  }
}

const allJsonScalars = (values: ReadonlyArray<unknown>): boolean => {
  for (let i = 0; i < values.length; i++) if (!isJsonScalar(values[i])) return false
  return true
}

const annotationsAreJsonScalars = (annotations: Readonly<Record<string, unknown>>): boolean => {
  // `for…in` also visits inherited keys: at worst a line takes the exact slow path for nothing.
  for (const key in annotations) if (!isJsonScalar(annotations[key])) return false
  return true
}

/** What Effect's `formatStructured` + `formatJson` write, for any line. */
const formatLineExactly = (options: Logger.Options<unknown>): string => {
  const entry = Logger.formatStructured.log(options)
  return Formatter.formatJson({
    message: entry.message,
    logLevel: entry.level,
    timestamp: entry.timestamp,
    cause: entry.cause,
    annotations: entry.annotations,
    spans: entry.spans,
    fiberId: entry.fiberId
  })
}

/**
 * The line (without its newline) for one log call: the same text as `Logger.formatStructured`
 * serialised by `Formatter.formatJson` with `level` renamed `logLevel`.
 */
export const formatLine = (options: Logger.Options<unknown>): string => {
  const { cause, date, fiber, logLevel, message } = options
  const messages: ReadonlyArray<unknown> = Array.isArray(message) ? message : [message]
  const annotations = fiber.getRef(References.CurrentLogAnnotations)
  if (!allJsonScalars(messages) || !annotationsAreJsonScalars(annotations)) return formatLineExactly(options)
  const now = date.getTime()
  let spans: Record<string, number> | undefined
  for (const [label, startedAt] of fiber.getRef(References.CurrentLogSpans)) {
    spans ??= {}
    // As `formatStructured` does: a `__proto__` label is an ordinary key, not the prototype.
    if (label === "__proto__") {
      Object.defineProperty(spans, label, {
        value: now - startedAt,
        writable: true,
        enumerable: true,
        configurable: true
      })
    } else {
      spans[label] = now - startedAt
    }
  }
  // The object `JSON.stringify` would write, written in its order one member at a time: only the
  // values need serialising (the level, the timestamp and the fiber id never need escaping), and a
  // cause, absent from most lines, is left out as `JSON.stringify` leaves out `undefined`.
  const causeMember = cause.reasons.length > 0 ? `"cause":${JSON.stringify(Cause.pretty(cause))},` : ""
  return `{"message":${JSON.stringify(messages.length === 1 ? messages[0] : messages)},"logLevel":"${levelLabels[logLevel]}","timestamp":"${isoTimestamp(date)}",${causeMember}"annotations":${JSON.stringify(annotations)},"spans":${spans === undefined ? "{}" : JSON.stringify(spans)},"fiberId":"#${fiber.id}"}`
}

// ---------------------------------------------------------------------------------------------------
// The batch: the lines of this turn, joined by newlines, for the process's stdout.

const stdout = 1
const maxBatchLength = 64 * 1024
const pause = new Int32Array(new SharedArrayBuffer(4))

let batch = ""
let flushScheduled = false
let exitHookInstalled = false

/**
 * Writes all of `text` to stdout before returning. Node leaves a pipe on stdout non-blocking, so a
 * full pipe answers EAGAIN: wait a millisecond for its reader and go on (what pino's synchronous
 * destination does too). Any other error means stdout is gone: the lines are dropped, as
 * `console.log` drops them.
 */
const writeAll = (text: string): void => {
  const bytes = Buffer.from(text)
  let written = 0
  while (written < bytes.length) {
    try {
      written += writeSync(stdout, bytes, written)
    } catch (error) {
      if (!Predicate.hasProperty(error, "code") || error.code !== "EAGAIN") return
      Atomics.wait(pause, 0, 0, 1)
    }
  }
}

const flush = (): void => {
  flushScheduled = false
  if (batch === "") return
  const lines = batch
  batch = ""
  writeAll(lines)
}

const append = (line: string): void => {
  batch += `${line}\n`
  if (!exitHookInstalled) {
    exitHookInstalled = true
    process.on("exit", flush)
  }
  if (batch.length >= maxBatchLength) {
    flush()
  } else if (!flushScheduled) {
    flushScheduled = true
    setImmediate(flush)
  }
}

/** Writes each line to the fiber's `Console`: batched when that is the process's own. */
export const logger: Logger.Logger<unknown, void> = Logger.make((options) => {
  const line = formatLine(options)
  const console = options.fiber.getRef(Console.Console)
  if (console === globalThis.console) append(line)
  else console.log(line)
})

export const layer = Logger.layer([logger, Logger.tracerLogger])
