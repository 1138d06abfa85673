/**
 * Prometheus' scrape endpoint on a listener of its own: `GET /metrics` answers the text exposition
 * format, anything else 404. The API and the worker both serve their metrics this way, never on the
 * API's public port, and bound to loopback unless the operator names another address: route counts,
 * the queue depth and the process's activity are for the operator's scraper, not for whoever can
 * reach the API. Which address is the app's configuration; this module only serves it.
 */
import { type ListenError, NodeListener, pathOf, type TcpAddress } from "@petstore/node-listener"
import { Effect, type Scope } from "effect"
import { HttpServerRequest } from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"

/** What Prometheus' text exposition format 0.0.4 is served as. */
export const contentType = "text/plain; version=0.0.4; charset=utf-8"

export const metricsPath = "/metrics"

/** Where the listener binds when the operator does not say: this machine only. */
export const defaultHost = "127.0.0.1"

export interface MetricsListenerOptions extends TcpAddress {
  /** The settings that chose the address, named when it cannot be opened (`PETSTORE_METRICS_PORT`). */
  readonly settings?: string | undefined
}

/** The scrape URL of `address`, for the log (an IPv6 address in brackets). */
export const url = ({ host, port }: TcpAddress): string =>
  `http://${host.includes(":") ? `[${host}]` : host}:${port}${metricsPath}`

const notFound = HttpServerResponse.text("not found\n", { status: 404, contentType: "text/plain" })

const unreadable = HttpServerResponse.text("the metrics could not be read\n", {
  status: 500,
  contentType: "text/plain"
})

/** The exposition text made at each scrape of `GET` (or `HEAD`) `/metrics`. */
const scrapes = <R>(render: Effect.Effect<string, never, R>) =>
  Effect.flatMap(HttpServerRequest, (request) =>
    (request.method !== "GET" && request.method !== "HEAD") || pathOf(request.url) !== metricsPath
      ? Effect.succeed(notFound)
      : render.pipe(
          Effect.map((text) => HttpServerResponse.text(text, { contentType })),
          Effect.catchCause(() => Effect.succeed(unreadable))
        )
  )

/**
 * Serves `render` (the exposition text, made at each scrape) on `options.host:options.port` until the
 * scope closes; a port in use or an address not of this machine fails with a sentence saying so.
 * Closing stops accepting and ends kept-alive scrape connections at once.
 */
export const serve = <R>(
  options: MetricsListenerOptions,
  render: Effect.Effect<string, never, R>
): Effect.Effect<TcpAddress, ListenError, R | Scope.Scope> =>
  NodeListener.serve(scrapes(render), {
    listener: "metrics",
    address: { host: options.host, port: options.port },
    shutdownGrace: 0,
    settings: options.settings
  })
