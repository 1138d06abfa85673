/**
 * The metrics listener through real sockets: the exposition text at `GET /metrics` and nothing else,
 * bound to the address it is given (127.0.0.1 by default, so another loopback address, 127.0.0.2, is
 * refused, as any other interface would be), a clear error for a port in use, and closed with its
 * scope even while a scraper keeps its connection alive. Which variables choose the address is the
 * apps' configuration, tested with them.
 */
import { request } from "node:http"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { MetricsListener } from "../src/index.js"

interface Answer {
  readonly status: number
  readonly contentType: string | undefined
  readonly text: string
}

/** One exchange on a connection of its own; fails with the socket error's code (ECONNREFUSED). */
const exchange = (host: string, port: number, path = "/metrics", method = "GET") =>
  Effect.callback<Answer, string>((resume) => {
    const sent = request({ host, port, path, method, agent: false }, (response) => {
      let text = ""
      response.setEncoding("utf8")
      response.on("data", (chunk: string) => {
        text += chunk
      })
      response.on("end", () =>
        resume(
          Effect.succeed({
            status: response.statusCode ?? 0,
            contentType: response.headers["content-type"],
            text
          })
        )
      )
    })
    sent.on("error", (error: NodeJS.ErrnoException) => resume(Effect.fail(error.code ?? error.message)))
    sent.end()
  })

const exposition = "# TYPE up gauge\nup 1\n"

describe("MetricsListener", () => {
  it.effect("serves the exposition text at GET /metrics, and 404 anywhere else", () =>
    Effect.gen(function* () {
      let scrapes = 0
      const { port } = yield* MetricsListener.serve(
        { host: "127.0.0.1", port: 0 },
        Effect.sync(() => `scrape ${++scrapes}\n`)
      )
      expect(yield* exchange("127.0.0.1", port)).toEqual({
        status: 200,
        contentType: "text/plain; version=0.0.4; charset=utf-8",
        text: "scrape 1\n"
      })
      // Rendered at each scrape; a query string does not matter; HEAD has no body.
      expect((yield* exchange("127.0.0.1", port, "/metrics?name[]=up")).text).toBe("scrape 2\n")
      expect(yield* exchange("127.0.0.1", port, "/metrics", "HEAD")).toEqual({
        status: 200,
        contentType: "text/plain; version=0.0.4; charset=utf-8",
        text: ""
      })
      const notFound = { status: 404, contentType: "text/plain", text: "not found\n" }
      expect(yield* exchange("127.0.0.1", port, "/")).toEqual(notFound)
      expect(yield* exchange("127.0.0.1", port, "/metrics/")).toEqual(notFound)
      expect(yield* exchange("127.0.0.1", port, "/metrics", "POST")).toEqual(notFound)
    })
  )

  it.effect("answers 500, without detail, when the metrics cannot be read", () =>
    Effect.gen(function* () {
      const { port } = yield* MetricsListener.serve(
        { host: "127.0.0.1", port: 0 },
        Effect.die(new Error("registry at 10.0.0.7 unreachable"))
      )
      expect(yield* exchange("127.0.0.1", port)).toEqual({
        status: 500,
        contentType: "text/plain",
        text: "the metrics could not be read\n"
      })
    })
  )

  it.effect("binds the address it is given: the default one is this machine's loopback only", () =>
    Effect.gen(function* () {
      const loopback = yield* MetricsListener.serve(
        { host: MetricsListener.defaultHost, port: 0 },
        Effect.succeed(exposition)
      )
      expect(loopback.host).toBe("127.0.0.1")
      expect((yield* exchange("127.0.0.1", loopback.port)).text).toBe(exposition)
      // Another address of this machine: nothing listens there.
      expect(yield* Effect.flip(exchange("127.0.0.2", loopback.port))).toBe("ECONNREFUSED")

      const everywhere = yield* MetricsListener.serve(
        { host: "0.0.0.0", port: 0 },
        Effect.succeed(exposition)
      )
      expect(everywhere.host).toBe("0.0.0.0")
      expect((yield* exchange("127.0.0.2", everywhere.port)).text).toBe(exposition)
    })
  )

  it.effect("a port in use is a start error naming the address and the settings that chose it", () =>
    Effect.gen(function* () {
      const taken = yield* MetricsListener.serve({ host: "127.0.0.1", port: 0 }, Effect.succeed(exposition))
      const error = yield* Effect.flip(
        MetricsListener.serve(
          { host: "127.0.0.1", port: taken.port, settings: "PETSTORE_METRICS_PORT, PETSTORE_METRICS_HOST" },
          Effect.succeed(exposition)
        )
      )
      expect(error._tag).toBe("ListenError")
      expect(error.message).toBe(
        `the metrics listener cannot listen on 127.0.0.1:${taken.port}: the port is already in use (PETSTORE_METRICS_PORT, PETSTORE_METRICS_HOST)`
      )
    })
  )

  it.effect("closes with its scope, a scraper's kept-alive connection included", () =>
    Effect.gen(function* () {
      const port = yield* Effect.scoped(
        Effect.gen(function* () {
          const address = yield* MetricsListener.serve(
            { host: "127.0.0.1", port: 0 },
            Effect.succeed(exposition)
          )
          // fetch keeps its connection alive: closing must not wait for the scraper to let go.
          const response = yield* Effect.promise(() => fetch(`http://127.0.0.1:${address.port}/metrics`))
          expect(yield* Effect.promise(() => response.text())).toBe(exposition)
          return address.port
        })
      )
      expect(yield* Effect.flip(exchange("127.0.0.1", port))).toBe("ECONNREFUSED")
    })
  )
})
