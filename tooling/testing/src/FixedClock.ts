/**
 * A clock that reads a chosen instant but sleeps in real time, so a real server can be run "on" a
 * given date (the removal date of `GET /pets/{petId}`) while its timeouts still work.
 */
import { Clock, Effect, Layer } from "effect"

export const fixedClockLayer = (at: Date) => {
  const real = Clock.make()
  const millis = at.getTime()
  const clock: Clock.Clock = {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: () => millis,
    unsafeCurrentTimeNanos: () => BigInt(millis) * 1_000_000n,
    currentTimeMillis: Effect.succeed(millis),
    currentTimeNanos: Effect.succeed(BigInt(millis) * 1_000_000n),
    sleep: (duration) => real.sleep(duration)
  }
  return Layer.setClock(clock)
}
