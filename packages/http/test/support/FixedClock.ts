/**
 * A clock that reads a chosen instant but sleeps (and measures elapsed time) in real time, so a real
 * server can be run "on" a given date (the removal date of `GET /pets/{petId}`) while its timeouts
 * still work.
 */
import { Clock, Effect, Layer } from "effect"

export const fixedClockLayer = (at: Date) =>
  Layer.effect(
    Clock.Clock,
    Effect.clockWith((real) => {
      const millis = at.getTime()
      const nanos = BigInt(millis) * 1_000_000n
      const clock: Clock.Clock = {
        currentTimeMillisUnsafe: () => millis,
        currentTimeMillis: Effect.succeed(millis),
        currentTimeNanosUnsafe: () => nanos,
        currentTimeNanos: Effect.succeed(nanos),
        monotonicTimeNanosUnsafe: () => real.monotonicTimeNanosUnsafe(),
        monotonicTimeNanos: real.monotonicTimeNanos,
        sleep: (duration) => real.sleep(duration)
      }
      return Effect.succeed(clock)
    })
  )
