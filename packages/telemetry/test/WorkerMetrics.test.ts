/**
 * The worker's metrics as Prometheus scrapes them: rounds and jobs by outcome in the text exposition
 * format, only when a port is configured, each listener counting its own rounds.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option } from "effect"
import { WorkerMetrics } from "../src/index.js"

const withEnvironment = (variables: Record<string, string>) =>
  Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: variables }))

const scrape = (port: number, path = "/metrics") =>
  Effect.promise(async () => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`)
    return {
      status: response.status,
      contentType: response.headers.get("content-type"),
      text: await response.text()
    }
  })

const servedPort = (metrics: WorkerMetrics.WorkerMetrics) =>
  Option.match(metrics.port, {
    onNone: () => Effect.die("the metrics are not served"),
    onSome: Effect.succeed
  })

describe("WorkerMetrics.serve", () => {
  it.effect("counts rounds and jobs by outcome, in Prometheus' text format", () =>
    Effect.gen(function* () {
      const metrics = yield* WorkerMetrics.serve.pipe(withEnvironment({ PETSTORE_WORKER_METRICS_PORT: "0" }))
      const port = yield* servedPort(metrics)
      expect(port).toBeGreaterThan(0)

      const before = yield* scrape(port)
      expect(before.status).toBe(200)
      expect(before.contentType).toBe("text/plain; version=0.0.4; charset=utf-8")
      expect(before.text.split("\n")).toContain("petstore_worker_rounds_total 0")
      expect(before.text).not.toContain("petstore_worker_jobs_total{")

      yield* metrics.recordRound({ claimed: 3, completed: 2, abandoned: 1 })
      yield* metrics.recordRound({ claimed: 0, completed: 0, abandoned: 0 })
      yield* metrics.recordRound({ claimed: 2, completed: 2, abandoned: 0 })

      const after = yield* scrape(port)
      expect(after.text.split("\n").filter((line) => line !== "")).toEqual([
        "# HELP petstore_worker_rounds_total Rounds that claimed at least one due domain.",
        "# TYPE petstore_worker_rounds_total counter",
        "petstore_worker_rounds_total 2",
        "# HELP petstore_worker_jobs_total Domain jobs (a verification check or certificate work) by outcome.",
        "# TYPE petstore_worker_jobs_total counter",
        'petstore_worker_jobs_total{outcome="completed"} 4',
        'petstore_worker_jobs_total{outcome="abandoned"} 1'
      ])
      expect(after.text.endsWith("\n")).toBe(true)
    })
  )

  it.effect("answers 404 anywhere but GET /metrics", () =>
    Effect.gen(function* () {
      const metrics = yield* WorkerMetrics.serve.pipe(withEnvironment({ PETSTORE_WORKER_METRICS_PORT: "0" }))
      const port = yield* servedPort(metrics)
      const elsewhere = yield* scrape(port, "/")
      expect(elsewhere).toEqual({ status: 404, contentType: "text/plain", text: "not found\n" })
    })
  )

  it.effect("each listener counts its own rounds", () =>
    Effect.gen(function* () {
      const environment = withEnvironment({ PETSTORE_WORKER_METRICS_PORT: "0" })
      const first = yield* WorkerMetrics.serve.pipe(environment)
      const second = yield* WorkerMetrics.serve.pipe(environment)
      yield* first.recordRound({ claimed: 1, completed: 1, abandoned: 0 })
      const text = (yield* scrape(yield* servedPort(second))).text
      expect(text.split("\n")).toContain("petstore_worker_rounds_total 0")
      expect(text).not.toContain("petstore_worker_jobs_total{")
    })
  )

  it.effect("closes its listener with the scope", () =>
    Effect.gen(function* () {
      const port = yield* WorkerMetrics.serve.pipe(
        withEnvironment({ PETSTORE_WORKER_METRICS_PORT: "0" }),
        Effect.flatMap(servedPort),
        Effect.scoped
      )
      const refused = yield* Effect.promise(() =>
        fetch(`http://127.0.0.1:${port}/metrics`).then(
          () => false,
          () => true
        )
      )
      expect(refused).toBe(true)
    })
  )

  it.effect("without a port, records without serving", () =>
    Effect.gen(function* () {
      const metrics = yield* WorkerMetrics.serve.pipe(withEnvironment({}))
      expect(Option.isNone(metrics.port)).toBe(true)
      yield* metrics.recordRound({ claimed: 1, completed: 1, abandoned: 0 })
    })
  )

  it.effect("refuses a port out of range", () =>
    Effect.gen(function* () {
      const error = yield* WorkerMetrics.serve.pipe(
        withEnvironment({ PETSTORE_WORKER_METRICS_PORT: "65536" }),
        Effect.flip
      )
      expect(error.message).toContain("must be a port from 0 to 65535")
    })
  )
})
