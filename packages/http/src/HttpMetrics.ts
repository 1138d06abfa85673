/**
 * The API's Prometheus metrics (prom-client, one registry per server), served at `GET /metrics` in
 * the text exposition format: requests by route and status, their latency, rate-limit refusals, and
 * the worker's queue depth (domains with work due now, read from storage at each scrape).
 * Routes are the API's path templates (`/v1/pets/:petId`), so that ids do not multiply the series.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { DomainRepository } from "@petstore/domain"
import { Clock, Context, Effect, Layer } from "effect"
import { Counter, Gauge, Histogram, Registry } from "prom-client"
import { routeTemplate } from "./AllowedMethods.js"
import { metricsPath, publicPaths } from "./PublicPaths.js"

export interface RequestObservation {
  readonly method: string
  readonly path: string
  readonly status: number
  readonly durationMs: number
}

export interface HttpMetricsService {
  readonly observeRequest: (request: RequestObservation) => void
  readonly rateLimited: (policy: string) => void
  /** The exposition text, the queue depth read just before. */
  readonly render: Effect.Effect<string, never, DomainRepository>
}

export class HttpMetrics extends Context.Tag("@petstore/http/HttpMetrics")<
  HttpMetrics,
  HttpMetricsService
>() {}

export const make = (): HttpMetricsService => {
  const registry = new Registry()
  const requests = new Counter({
    name: "petstore_http_requests_total",
    help: "Requests answered, by route template, method and status.",
    labelNames: ["route", "method", "status"] as const,
    registers: [registry]
  })
  const duration = new Histogram({
    name: "petstore_http_request_duration_seconds",
    help: "Time from the request's arrival to its answer, by route template and method.",
    labelNames: ["route", "method"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry]
  })
  const refusals = new Counter({
    name: "petstore_rate_limited_total",
    help: "Requests refused with 429, by rate-limit policy.",
    labelNames: ["policy"] as const,
    registers: [registry]
  })
  const queueDepth = new Gauge({
    name: "petstore_worker_queue_depth",
    help: "Custom domains with verification or certificate work due now.",
    registers: [registry]
  })
  return {
    observeRequest: ({ durationMs, method, path, status }) => {
      const route = routeTemplate(path) ?? (publicPaths.has(path) ? path : "unmatched")
      requests.inc({ route, method, status: String(status) })
      duration.observe({ route, method }, durationMs / 1000)
    },
    rateLimited: (policy) => refusals.inc({ policy }),
    render: Effect.gen(function* () {
      const domains = yield* DomainRepository
      const now = new Date(yield* Clock.currentTimeMillis)
      const due = yield* Effect.either(domains.countDue(now))
      // Storage down: the depth is unknown, and a scrape must not fail for it.
      queueDepth.set(due._tag === "Right" ? due.right : Number.NaN)
      return yield* Effect.promise(() => registry.metrics())
    })
  }
}

export const layer: Layer.Layer<HttpMetrics> = Layer.sync(HttpMetrics, make)

/** `GET /metrics`: outside the versioned API, no key (scraped from the operator's network). */
export const MetricsRoute = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const metrics = yield* HttpMetrics
    const domains = yield* DomainRepository
    yield* router.get(
      metricsPath,
      metrics.render.pipe(
        Effect.provideService(DomainRepository, domains),
        Effect.map((text) =>
          HttpServerResponse.text(text, { contentType: "text/plain; version=0.0.4; charset=utf-8" })
        )
      )
    )
  })
)
