/**
 * A clock a test can move forward: it reads real time plus an offset held in a `Ref`, and sleeps in
 * real time, so a real server and a real worker loop keep running while "48 hours" pass in a call.
 */
import { Clock, Context, Duration, Effect, Layer, Ref } from "effect"

export class ClockControl extends Context.Service<
  ClockControl,
  {
    /** Moves the clock of the layer forward by `duration` (real sleeps are not affected). */
    readonly advance: (duration: Duration.Input) => Effect.Effect<void>
    /** What the layer's clock reads now. */
    readonly now: Effect.Effect<Date>
  }
>()("test/ClockControl") {}

const clockOn = (offset: Ref.Ref<number>): Clock.Clock => {
  const real = Clock.Clock.defaultValue()
  const millis = () => real.currentTimeMillisUnsafe() + Ref.getUnsafe(offset)
  return {
    currentTimeMillisUnsafe: millis,
    currentTimeMillis: Effect.sync(millis),
    currentTimeNanosUnsafe: () => BigInt(millis()) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(millis()) * 1_000_000n),
    monotonicTimeNanosUnsafe: () => real.monotonicTimeNanosUnsafe(),
    monotonicTimeNanos: real.monotonicTimeNanos,
    sleep: (duration) => real.sleep(duration)
  }
}

/** `layer` (and every fiber it forks) on an adjustable clock, with the `ClockControl` that moves it. */
export const withAdjustableClock = <A, E, R>(
  layer: Layer.Layer<A, E, R>
): Layer.Layer<A | ClockControl, E, R> =>
  Layer.unwrap(
    Effect.map(Ref.make(0), (offset) => {
      const clock = clockOn(offset)
      const control = ClockControl.of({
        advance: (duration) => Ref.update(offset, (millis) => millis + Duration.toMillis(duration)),
        now: Effect.sync(() => new Date(clock.currentTimeMillisUnsafe()))
      })
      return Layer.merge(
        Layer.succeed(ClockControl, control),
        layer.pipe(Layer.provide(Layer.succeed(Clock.Clock, clock)))
      )
    })
  )
