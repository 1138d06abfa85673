/**
 * The worker's Prometheus metrics, served by `MetricsListener` when the worker is configured to
 * (it has no other HTTP listener): jobs by outcome (`completed`: stored; `abandoned`: failed or its
 * lease lost, given back to be done again) and rounds. The queue depth is the API's metrics: it
 * reads storage, which every worker shares.
 */
import { Context, Effect, Metric } from "effect"
import * as PrometheusMetrics from "effect/observability/PrometheusMetrics"

export interface RoundOutcome {
  readonly claimed: number
  readonly completed: number
  readonly abandoned: number
}

export interface WorkerMetrics {
  readonly recordRound: (round: RoundOutcome) => Effect.Effect<void>
  /** The exposition text of these metrics, as a scrape reads it. */
  readonly render: Effect.Effect<string>
}

const jobs = Metric.counter("petstore_worker_jobs_total", {
  description: "Domain jobs (a verification check or certificate work) by outcome.",
  incremental: true
})
const completedJobs = Metric.withAttributes(jobs, { outcome: "completed" })
const abandonedJobs = Metric.withAttributes(jobs, { outcome: "abandoned" })
const rounds = Metric.counter("petstore_worker_rounds_total", {
  description: "Rounds that claimed at least one due domain.",
  incremental: true
})

/**
 * The metrics live in a registry of their own, read and updated through this context rather than the
 * caller's: `/metrics` shows these series only, never other Effect metrics of the process, and no
 * metric attributes the caller's fiber carries become labels.
 */
const metricsContext = (): Context.Context<never> => Context.make(Metric.MetricRegistry, new Map())

const roundRecorder =
  (context: Context.Context<never>) =>
  (round: RoundOutcome): Effect.Effect<void> =>
    Effect.sync(() => {
      if (round.claimed === 0) return
      rounds.updateUnsafe(1, context)
      completedJobs.updateUnsafe(round.completed, context)
      abandonedJobs.updateUnsafe(round.abandoned, context)
    })

/** A fresh set of the worker's metrics, every series at zero. */
export const make = (): WorkerMetrics => {
  const context = metricsContext()
  // Registered now, so a scrape before the first round reads 0 rounds rather than no series.
  rounds.valueUnsafe(context)
  return {
    recordRound: roundRecorder(context),
    render: Effect.sync(() => PrometheusMetrics.formatUnsafe(context))
  }
}
