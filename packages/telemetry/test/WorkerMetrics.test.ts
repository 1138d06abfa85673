/**
 * The worker's metrics as a scrape reads them: rounds and jobs by outcome in the text exposition
 * format, each set counting its own rounds.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { WorkerMetrics } from "../src/index.js"

describe("WorkerMetrics", () => {
  it.effect("counts rounds and jobs by outcome, in Prometheus' text format", () =>
    Effect.gen(function* () {
      const metrics = WorkerMetrics.make()
      const before = yield* metrics.render
      expect(before.split("\n")).toContain("petstore_worker_rounds_total 0")
      expect(before).not.toContain("petstore_worker_jobs_total{")

      yield* metrics.recordRound({ claimed: 3, completed: 2, abandoned: 1 })
      yield* metrics.recordRound({ claimed: 0, completed: 0, abandoned: 0 })
      yield* metrics.recordRound({ claimed: 2, completed: 2, abandoned: 0 })

      const after = yield* metrics.render
      expect(after.split("\n").filter((line) => line !== "")).toEqual([
        "# HELP petstore_worker_rounds_total Rounds that claimed at least one due domain.",
        "# TYPE petstore_worker_rounds_total counter",
        "petstore_worker_rounds_total 2",
        "# HELP petstore_worker_jobs_total Domain jobs (a verification check or certificate work) by outcome.",
        "# TYPE petstore_worker_jobs_total counter",
        'petstore_worker_jobs_total{outcome="completed"} 4',
        'petstore_worker_jobs_total{outcome="abandoned"} 1'
      ])
      expect(after.endsWith("\n")).toBe(true)
    })
  )

  it.effect("each set counts its own rounds", () =>
    Effect.gen(function* () {
      const first = WorkerMetrics.make()
      const second = WorkerMetrics.make()
      yield* first.recordRound({ claimed: 1, completed: 1, abandoned: 0 })
      const text = yield* second.render
      expect(text.split("\n")).toContain("petstore_worker_rounds_total 0")
      expect(text).not.toContain("petstore_worker_jobs_total{")
    })
  )
})
