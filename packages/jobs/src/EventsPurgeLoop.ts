/**
 * The purge of the events past their retention of 30 days (`purgeExpiredEvents`): at start, then
 * every hour, for the life of the server that runs it (the API). Every replica runs it, as it runs the
 * idempotency purge: two purges at once only both delete what is past its retention.
 */
import { purgeExpiredEvents } from "@petstore/events"
import { Duration } from "effect"
import { runPurgeLoop } from "./PurgeLoop.js"

/** The pause between two purges. */
export const defaultEventsPurgeInterval: Duration.Duration = Duration.hours(1)

/** Purges at once, then after every `interval`, until interrupted; a failed purge waits for the next. */
export const runEventsPurge = (interval: Duration.Input = defaultEventsPurgeInterval) =>
  runPurgeLoop({ forgets: "events past their retention", round: purgeExpiredEvents, interval })
