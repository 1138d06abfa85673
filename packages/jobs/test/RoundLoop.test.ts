/**
 * The loop around one round of work (custom-domain checks, claim rechecks): when the next round runs,
 * and what a failed round does and how it is logged.
 */
import { describe, expect, it } from "@effect/vitest"
import type { DueCheckRound } from "@petstore/kernel"
import { Effect, Fiber, Logger, Queue, Ref, References } from "effect"
import { TestClock } from "effect/testing"
import { repeatRounds } from "../src/RoundLoop.js"

const full: DueCheckRound = { claimed: 10, completed: 10, abandoned: 0 }
const short: DueCheckRound = { claimed: 3, completed: 3, abandoned: 0 }

/**
 * A round that answers the scripted outcomes in turn (then `short`), counting the rounds run, and a
 * queue of the outcomes the loop reports: taking from it waits for the loop.
 */
const scriptedRounds = (script: ReadonlyArray<DueCheckRound | "fail">) =>
  Effect.gen(function* () {
    const ran = yield* Ref.make(0)
    const reported = yield* Queue.unbounded<DueCheckRound>()
    const round = Effect.flatMap(
      Ref.getAndUpdate(ran, (n) => n + 1),
      (n) => {
        const outcome = script[n] ?? short
        return outcome === "fail" ? Effect.fail("storage down") : Effect.succeed(outcome)
      }
    )
    return { ran, reported, round, onRound: (outcome: DueCheckRound) => Queue.offer(reported, outcome) }
  })

/** Lets the loop run until it waits (for the clock): it never needs this many turns between rounds. */
const settle = Effect.gen(function* () {
  for (let turn = 0; turn < 50; turn++) yield* Effect.yieldNow
})

describe("repeatRounds", () => {
  it.effect("runs the next round at once after a full batch, and pauses after a short one", () =>
    Effect.gen(function* () {
      const { onRound, ran, reported, round } = yield* scriptedRounds([full, full, short, short])
      const loop = yield* Effect.forkChild(
        repeatRounds(round, { work: "domain checks", batchSize: 10, pollInterval: "1 second", onRound })
      )
      // Two full rounds and the short one that ends the burst, without the clock moving.
      expect(yield* Queue.takeN(reported, 3)).toStrictEqual([full, full, short])
      yield* settle
      expect(yield* Ref.get(ran)).toBe(3)
      yield* TestClock.adjust("999 millis")
      yield* settle
      expect(yield* Ref.get(ran)).toBe(3)
      yield* TestClock.adjust("1 millis")
      expect(yield* Queue.take(reported)).toStrictEqual(short)
      yield* Fiber.interrupt(loop)
    })
  )

  it.effect("tries again after the pause when a round fails, and carries on", () =>
    Effect.gen(function* () {
      const { onRound, ran, reported, round } = yield* scriptedRounds(["fail", full, short])
      const loop = yield* Effect.forkChild(
        repeatRounds(round, { work: "domain checks", batchSize: 10, pollInterval: "5 seconds", onRound })
      )
      yield* settle
      expect(yield* Ref.get(ran)).toBe(1)
      yield* TestClock.adjust("4999 millis")
      yield* settle
      expect(yield* Ref.get(ran)).toBe(1)
      yield* TestClock.adjust("1 millis")
      expect(yield* Queue.takeN(reported, 2)).toStrictEqual([full, short])
      yield* Fiber.interrupt(loop)
    })
  )
})

/** Every message logged while `effect` runs, with its level, in order. */
const capturingLogs = Effect.sync(() => {
  const logged: Array<{ readonly level: string; readonly message: unknown }> = []
  const layer = Logger.layer([
    Logger.make((options) => {
      logged.push({ level: options.logLevel, message: options.message })
    })
  ])
  return { logged, layer }
})

describe("repeatRounds' logs", () => {
  it.effect("name the work: a round that claimed some at debug level, a failed one as a warning", () =>
    Effect.gen(function* () {
      const { layer, logged } = yield* capturingLogs
      const { onRound, ran, reported, round } = yield* scriptedRounds([
        { claimed: 0, completed: 0, abandoned: 0 },
        "fail",
        short
      ])
      const loop = yield* Effect.forkChild(
        repeatRounds(round, {
          work: "claim rechecks",
          batchSize: 10,
          pollInterval: "1 second",
          onRound
        }).pipe(Effect.provide(layer), Effect.provideService(References.MinimumLogLevel, "Debug"))
      )
      yield* settle
      yield* TestClock.adjust("1 second")
      yield* settle
      expect(yield* Ref.get(ran)).toBe(2)
      yield* TestClock.adjust("1 second")
      expect(yield* Queue.takeN(reported, 2)).toStrictEqual([
        { claimed: 0, completed: 0, abandoned: 0 },
        short
      ])
      yield* Fiber.interrupt(loop)
      // An empty round says nothing; the failure names the work and carries the error.
      expect(logged).toStrictEqual([
        { level: "Warn", message: ["a round of claim rechecks failed", "storage down"] },
        { level: "Debug", message: ["claim rechecks", short] }
      ])
    })
  )
})
