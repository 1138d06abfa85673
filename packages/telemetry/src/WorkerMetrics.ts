/**
 * The worker's Prometheus metrics, served at `GET /metrics` on `PETSTORE_WORKER_METRICS_PORT` when it
 * is set (the worker has no other HTTP listener): jobs by outcome (`completed`: stored; `abandoned`:
 * failed or its lease lost, given back to be done again) and rounds. The queue depth is the API's
 * `/metrics`: it reads storage, which every worker shares.
 */
import { createServer } from "node:http"
import { Config, Context, Effect, Metric, Option, Schema } from "effect"
import * as PrometheusMetrics from "effect/observability/PrometheusMetrics"

export interface RoundOutcome {
  readonly claimed: number
  readonly completed: number
  readonly abandoned: number
}

export const WorkerMetricsPortConfig = Config.option(
  Config.schema(
    Schema.Int.check(
      Schema.isBetween({ minimum: 0, maximum: 65_535 }, { message: "must be a port from 0 to 65535" })
    ),
    "PETSTORE_WORKER_METRICS_PORT"
  )
)

export interface WorkerMetrics {
  readonly recordRound: (round: RoundOutcome) => Effect.Effect<void>
  /** Where the metrics are served, when they are. */
  readonly port: Option.Option<number>
}

/** What Prometheus' text exposition format 0.0.4 is served as. */
const contentType = "text/plain; version=0.0.4; charset=utf-8"

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

/** The metrics, and their listener on `PETSTORE_WORKER_METRICS_PORT` (closed with the scope). */
export const serve = Effect.gen(function* () {
  const context = metricsContext()
  // Registered now, so a scrape before the first round reads 0 rounds rather than no series.
  rounds.valueUnsafe(context)
  const recordRound = roundRecorder(context)
  const configured = yield* WorkerMetricsPortConfig
  if (Option.isNone(configured)) return { recordRound, port: Option.none() } satisfies WorkerMetrics
  const server = createServer((request, response) => {
    if (request.method === "GET" && request.url === "/metrics") {
      response.writeHead(200, { "content-type": contentType }).end(PrometheusMetrics.formatUnsafe(context))
    } else {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found\n")
    }
  })
  const port = yield* Effect.acquireRelease(
    Effect.callback<number, Error>((resume) => {
      server.once("error", (error) => resume(Effect.fail(error)))
      server.listen(configured.value, "0.0.0.0", () => {
        const address = server.address()
        resume(
          Effect.succeed(typeof address === "object" && address !== null ? address.port : configured.value)
        )
      })
    }),
    () =>
      Effect.callback<void>((resume) => {
        server.close(() => resume(Effect.void))
      })
  )
  return { recordRound, port: Option.some(port) } satisfies WorkerMetrics
})
