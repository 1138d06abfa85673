/**
 * The API's Prometheus metrics (Effect's `Metric`, one registry per server, since tests run many
 * servers in one process), rendered in the text exposition format for the app's metrics listener
 * (never the public port): requests by route and status, their latency, rate-limit refusals, and the
 * worker's queue depth (domains with work due now, read from storage at each scrape). Routes are the
 * API's path templates (`/v1/pets/:petId`), so that ids do not multiply the series.
 *
 * Each series is a metric of its own, made once and kept by its labels: recording a request is then
 * a few map lookups and an update, with no label hashing and no fiber.
 */
import { CustomDomainRepository } from "@petstore/domains"
import { Clock, Context, Effect, Layer, Metric, Result } from "effect"
import * as PrometheusMetrics from "effect/observability/PrometheusMetrics"
import { routeTemplate } from "./AllowedMethods.js"
import { publicPaths } from "./PublicPaths.js"

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
  readonly render: Effect.Effect<string, never, CustomDomainRepository>
}

export class HttpMetrics extends Context.Service<HttpMetrics, HttpMetricsService>()(
  "@petstore/http/HttpMetrics"
) {}

const requestsName = "petstore_http_requests_total"
const requestsHelp = "Requests answered, by route template, method and status."
const durationName = "petstore_http_request_duration_seconds"
const durationHelp = "Time from the request's arrival to its answer, by route template and method."
const durationBuckets = Metric.boundariesFromIterable([
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
])
const refusalsName = "petstore_rate_limited_total"
const refusalsHelp = "Requests refused with 429, by rate-limit policy."

/** The series of one route and method: its count by status, and its latency. */
interface MethodSeries {
  readonly requests: Map<number, Metric.Counter<number>>
  readonly duration: Metric.Histogram<number>
}

const requestCounter = (route: string, method: string, status: number) =>
  Metric.counter(requestsName, {
    description: requestsHelp,
    attributes: { route, method, status: String(status) }
  })

export const make = (): HttpMetricsService => {
  const registry: Metric.MetricRegistry = new Map()
  const context = Context.make(Metric.MetricRegistry, registry)
  const queueDepth = Metric.gauge("petstore_worker_queue_depth", {
    description: "Custom domains with verification or certificate work due now."
  })
  // Each series made the first time its labels are seen, kept by route, then method, then status:
  // labels the server has at hand, never a text made of them on every request.
  const routes = new Map<string, Map<string, MethodSeries>>()
  const refusals = new Map<string, Metric.Counter<number>>()

  const seriesOf = (route: string, method: string, status: number): MethodSeries => {
    let methods = routes.get(route)
    if (methods === undefined) {
      methods = new Map()
      routes.set(route, methods)
    }
    let series = methods.get(method)
    if (series === undefined) {
      // A count is registered before its latency, the order the exposition lists the families in.
      const requests = new Map([[status, requestCounter(route, method, status)]])
      series = {
        requests,
        duration: Metric.histogram(durationName, {
          description: durationHelp,
          boundaries: durationBuckets,
          attributes: { route, method }
        })
      }
      methods.set(method, series)
    }
    return series
  }

  return {
    observeRequest: ({ durationMs, method, path, status }) => {
      const route = routeTemplate(path) ?? (publicPaths.has(path) ? path : "unmatched")
      const series = seriesOf(route, method, status)
      let requests = series.requests.get(status)
      if (requests === undefined) {
        requests = requestCounter(route, method, status)
        series.requests.set(status, requests)
      }
      requests.updateUnsafe(1, context)
      series.duration.updateUnsafe(durationMs / 1000, context)
    },
    rateLimited: (policy) => {
      let refused = refusals.get(policy)
      if (refused === undefined) {
        refused = Metric.counter(refusalsName, { description: refusalsHelp, attributes: { policy } })
        refusals.set(policy, refused)
      }
      refused.updateUnsafe(1, context)
    },
    render: Effect.gen(function* () {
      const domains = yield* CustomDomainRepository
      const now = new Date(yield* Clock.currentTimeMillis)
      const due = yield* Effect.result(domains.countDue(now))
      // Storage down: the depth is unknown, and a scrape must not fail for it.
      queueDepth.updateUnsafe(Result.isSuccess(due) ? due.success : Number.NaN, context)
      return PrometheusMetrics.formatUnsafe(context)
    })
  }
}

export const layer: Layer.Layer<HttpMetrics> = Layer.sync(HttpMetrics, make)

/** The exposition text of the server's metrics, as a scrape reads it. */
export const render: Effect.Effect<string, never, HttpMetrics | CustomDomainRepository> = Effect.flatMap(
  HttpMetrics,
  (metrics) => metrics.render
)
