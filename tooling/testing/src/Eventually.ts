/**
 * Waiting for what another process or connection changes to be seen: runs an effect again until
 * what it yields holds, within a deadline, and dies (failing the test) past it.
 */
import { Effect } from "effect"

/** Runs `effect` until `done` holds of what it yields, for at most `within` milliseconds. */
export const eventually = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  done: (value: A) => boolean,
  within = 2_000
) =>
  Effect.gen(function* () {
    const deadline = Date.now() + within
    while (true) {
      const value = yield* effect
      if (done(value)) return value
      if (Date.now() > deadline) return yield* Effect.die(new Error(`not so within ${within} ms`))
      yield* Effect.sleep("20 millis")
    }
  })
