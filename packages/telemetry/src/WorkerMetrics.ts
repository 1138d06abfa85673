/**
 * The worker's Prometheus metrics, served at `GET /metrics` on `PETSTORE_WORKER_METRICS_PORT` when it
 * is set (the worker has no other HTTP listener): jobs by outcome (`completed`: stored; `abandoned`:
 * failed or its lease lost, given back to be done again) and rounds. The queue depth is the API's
 * `/metrics`: it reads storage, which every worker shares.
 */
import { createServer } from "node:http"
import { Config, Effect, Option } from "effect"
import { Counter, Registry } from "prom-client"

export interface RoundOutcome {
  readonly claimed: number
  readonly completed: number
  readonly abandoned: number
}

export const WorkerMetricsPortConfig = Config.option(
  Config.integer("PETSTORE_WORKER_METRICS_PORT").pipe(
    Config.validate({
      message: "must be a port from 0 to 65535",
      validation: (port) => port >= 0 && port <= 65_535
    })
  )
)

export interface WorkerMetrics {
  readonly recordRound: (round: RoundOutcome) => Effect.Effect<void>
  /** Where the metrics are served, when they are. */
  readonly port: Option.Option<number>
}

const roundRecorder = (registry: Registry) => {
  const jobs = new Counter({
    name: "petstore_worker_jobs_total",
    help: "Domain jobs (a verification check or certificate work) by outcome.",
    labelNames: ["outcome"] as const,
    registers: [registry]
  })
  const rounds = new Counter({
    name: "petstore_worker_rounds_total",
    help: "Rounds that claimed at least one due domain.",
    registers: [registry]
  })
  return (round: RoundOutcome) =>
    Effect.sync(() => {
      if (round.claimed === 0) return
      rounds.inc()
      jobs.inc({ outcome: "completed" }, round.completed)
      jobs.inc({ outcome: "abandoned" }, round.abandoned)
    })
}

/** The metrics, and their listener on `PETSTORE_WORKER_METRICS_PORT` (closed with the scope). */
export const serve = Effect.gen(function* () {
  const registry = new Registry()
  const recordRound = roundRecorder(registry)
  const configured = yield* WorkerMetricsPortConfig
  if (Option.isNone(configured)) return { recordRound, port: Option.none() } satisfies WorkerMetrics
  const server = createServer((request, response) => {
    if (request.method === "GET" && request.url === "/metrics") {
      void registry
        .metrics()
        .then((text) => response.writeHead(200, { "content-type": registry.contentType }).end(text))
    } else {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found\n")
    }
  })
  const port = yield* Effect.acquireRelease(
    Effect.async<number, Error>((resume) => {
      server.once("error", (error) => resume(Effect.fail(error)))
      server.listen(configured.value, "0.0.0.0", () => {
        const address = server.address()
        resume(
          Effect.succeed(typeof address === "object" && address !== null ? address.port : configured.value)
        )
      })
    }),
    () =>
      Effect.async<void>((resume) => {
        server.close(() => resume(Effect.void))
      })
  )
  return { recordRound, port: Option.some(port) } satisfies WorkerMetrics
})
