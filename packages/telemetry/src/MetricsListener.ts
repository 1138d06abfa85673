/**
 * Prometheus' scrape endpoint on a listener of its own: `GET /metrics` answers the text exposition
 * format, anything else 404. The API and the worker both serve their metrics this way, never on the
 * API's public port, and bound to loopback unless the operator names another address: route counts,
 * the queue depth and the process's activity are for the operator's scraper, not for whoever can
 * reach the API.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { Config, Effect, Option, Schema, type Scope } from "effect"

/** What Prometheus' text exposition format 0.0.4 is served as. */
export const contentType = "text/plain; version=0.0.4; charset=utf-8"

export const metricsPath = "/metrics"

/** Where the listener binds when the operator does not say: this machine only. */
export const defaultHost = "127.0.0.1"

export interface MetricsListenerOptions {
  readonly host: string
  readonly port: number
}

/** Where the listener is bound, once it is (the chosen port, for port 0). */
export interface MetricsAddress {
  readonly host: string
  readonly port: number
}

/** Why the listener could not open: the message names the address and what to change. */
export class MetricsListenerError extends Schema.TaggedError<MetricsListenerError>()("MetricsListenerError", {
  host: Schema.String,
  port: Schema.Number,
  message: Schema.String
}) {}

const ListenPort = Schema.Int.check(
  Schema.isBetween({ minimum: 0, maximum: 65_535 }, { message: "must be a port from 0 to 65535" })
)

const portConfig = (name: string) => Config.option(Config.schema(ListenPort, name))

/**
 * Where to serve the metrics, if anywhere: `PETSTORE_METRICS_PORT` (unset: no listener; 0: any free
 * port), on `PETSTORE_METRICS_HOST` (default 127.0.0.1). `legacyPortVariable`, when given, is read
 * when `PETSTORE_METRICS_PORT` is not set: the name an app used before.
 */
export const config = (legacyPortVariable?: string): Config.Config<Option.Option<MetricsListenerOptions>> =>
  Config.all({
    port: portConfig("PETSTORE_METRICS_PORT"),
    legacyPort:
      legacyPortVariable === undefined
        ? Config.succeed(Option.none<number>())
        : portConfig(legacyPortVariable),
    host: Config.String("PETSTORE_METRICS_HOST").pipe(Config.withDefault(defaultHost))
  }).pipe(
    Config.map(({ port, legacyPort, host }) =>
      Option.map(
        Option.orElse(port, () => legacyPort),
        (chosen) => ({ host, port: chosen })
      )
    )
  )

/** The scrape URL of `address`, for the log (an IPv6 address in brackets). */
export const url = ({ host, port }: MetricsAddress): string =>
  `http://${host.includes(":") ? `[${host}]` : host}:${port}${metricsPath}`

const reasonOf = (error: Error): string => {
  const code = "code" in error ? error.code : undefined
  switch (code) {
    case "EADDRINUSE":
      return "the port is already in use"
    case "EACCES":
      return "permission denied (ports below 1024 need privileges)"
    case "EADDRNOTAVAIL":
      return "the address is not one of this machine's"
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "no such host"
    default:
      return error.message
  }
}

const pathOf = (request: IncomingMessage): string => {
  const target = request.url ?? ""
  const query = target.indexOf("?")
  return query === -1 ? target : target.slice(0, query)
}

const notFound = (response: ServerResponse) =>
  response.writeHead(404, { "content-type": "text/plain" }).end("not found\n")

/**
 * Serves `render` (the exposition text, made at each scrape) on `options.host:options.port` until the
 * scope closes; a port in use or an address not of this machine fails with a sentence saying so.
 * Closing stops accepting and ends kept-alive scrape connections at once.
 */
export const serve = <R>(
  options: MetricsListenerOptions,
  render: Effect.Effect<string, never, R>
): Effect.Effect<MetricsAddress, MetricsListenerError, R | Scope.Scope> =>
  Effect.gen(function* () {
    const runPromise = Effect.runPromiseWith(yield* Effect.context<R>())
    const server = createServer((request, response) => {
      const method = request.method
      if ((method !== "GET" && method !== "HEAD") || pathOf(request) !== metricsPath)
        return notFound(response)
      runPromise(render).then(
        (text) => {
          response.writeHead(200, { "content-type": contentType })
          response.end(method === "HEAD" ? undefined : text)
        },
        () => response.writeHead(500, { "content-type": "text/plain" }).end("the metrics could not be read\n")
      )
    })
    return yield* Effect.acquireRelease(
      Effect.callback<MetricsAddress, MetricsListenerError>((resume) => {
        const onError = (error: Error) =>
          resume(
            Effect.fail(
              new MetricsListenerError({
                host: options.host,
                port: options.port,
                message: `the metrics listener cannot listen on ${options.host}:${options.port}: ${reasonOf(error)} (PETSTORE_METRICS_PORT, PETSTORE_METRICS_HOST)`
              })
            )
          )
        server.once("error", onError)
        server.listen({ host: options.host, port: options.port }, () => {
          server.off("error", onError)
          const address = server.address()
          resume(
            Effect.succeed(
              typeof address === "object" && address !== null
                ? { host: address.address, port: address.port }
                : { host: options.host, port: options.port }
            )
          )
        })
      }),
      () =>
        Effect.callback<void>((resume) => {
          server.close(() => resume(Effect.void))
          server.closeAllConnections()
        })
    )
  })
