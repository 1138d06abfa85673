/**
 * The shared listener through real sockets: a port or socket that cannot be opened is a `ListenError`
 * in words, the listener answers on a TCP port or a Unix socket, and closing its scope drains: idle
 * connections end at once, a request in flight finishes within the grace period, and whatever is
 * left after it (a slow request, a TLS handshake never finished) is cut.
 */

import { mkdtemp } from "node:fs/promises"
import { Agent, request } from "node:http"
import { createServer as createHttpsServer } from "node:https"
import { connect, createServer as createTcpServer, type Server } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Exit, Fiber, Scope } from "effect"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { ListenError, NodeListener, type TcpAddress } from "../src/index.js"

type Target = { readonly port: number } | { readonly socketPath: string }

/** One exchange on a connection of its own (unless `agent` is given): the status and body, or the error's code. */
const exchange = (target: Target, agent: Agent | false = false) =>
  Effect.callback<{ readonly status: number; readonly body: string }, string>((resume) => {
    const sent = request({ ...target, host: "127.0.0.1", path: "/", agent }, (response) => {
      let body = ""
      response.setEncoding("utf8")
      response.on("data", (chunk: string) => {
        body += chunk
      })
      response.on("end", () => resume(Effect.succeed({ status: response.statusCode ?? 0, body })))
      response.on("error", (error: NodeJS.ErrnoException) => resume(Effect.fail(error.code ?? error.message)))
    })
    sent.on("error", (error: NodeJS.ErrnoException) => resume(Effect.fail(error.code ?? error.message)))
    sent.end()
  })

const hello = Effect.succeed(HttpServerResponse.text("hello"))

/**
 * Answers after `delay`. Interruptible, as a router's handlers are: a bare app runs uninterruptibly, and
 * closing the requests' scope would wait for it.
 */
const slow = (delay: Duration.Input) =>
  Effect.interruptible(Effect.as(Effect.sleep(delay), HttpServerResponse.text("finally")))

const loopback: TcpAddress = { host: "127.0.0.1", port: 0 }

const serveOn = <E, R>(
  app: Parameters<typeof NodeListener.serve<TcpAddress, E, R>>[0],
  shutdownGrace: Duration.Input = "1 second"
) => NodeListener.serve(app, { listener: "test", address: loopback, shutdownGrace })

/** A port held by a plain TCP server for the test's scope. */
const occupiedPort = Effect.acquireRelease(
  Effect.callback<Server>((resume) => {
    const server = createTcpServer()
    server.listen({ host: "127.0.0.1", port: 0 }, () => resume(Effect.succeed(server)))
  }),
  (server) => Effect.callback<void>((resume) => void server.close(() => resume(Effect.void)))
).pipe(
  Effect.map((server) => {
    const address = server.address()
    return typeof address === "object" && address !== null ? address.port : 0
  })
)

describe("listening", () => {
  it.effect("answers on the port it is bound to", () =>
    Effect.gen(function* () {
      const address = yield* serveOn(hello)
      expect(address.host).toBe("127.0.0.1")
      expect(address.port).toBeGreaterThan(0)
      expect(yield* exchange({ port: address.port })).toEqual({ status: 200, body: "hello" })
    })
  )

  it.effect(
    "a port in use is a ListenError naming the listener, the address, the reason and the settings",
    () =>
      Effect.gen(function* () {
        const port = yield* occupiedPort
        const error = yield* Effect.flip(
          NodeListener.serve(hello, {
            listener: "metrics",
            address: { host: "127.0.0.1", port },
            shutdownGrace: 0,
            settings: "PETSTORE_METRICS_PORT"
          })
        )
        expect(error).toBeInstanceOf(ListenError)
        expect(error.reason).toBe("the port is already in use")
        expect(error.message).toBe(
          `the metrics listener cannot listen on 127.0.0.1:${port}: the port is already in use (PETSTORE_METRICS_PORT)`
        )
      })
  )

  it.effect("an address that is not this machine's says so", () =>
    Effect.gen(function* () {
      // 192.0.2.0/24 is reserved for documentation: no machine has it.
      const error = yield* Effect.flip(
        NodeListener.serve(hello, {
          listener: "test",
          address: { host: "192.0.2.1", port: 0 },
          shutdownGrace: 0
        })
      )
      expect(error.message).toBe(
        "the test listener cannot listen on 192.0.2.1:0: the address is not one of this machine's"
      )
    })
  )

  it.effect("answers on a Unix socket, and a socket in use is a ListenError", () =>
    Effect.gen(function* () {
      const directory = yield* Effect.promise(() => mkdtemp(join(tmpdir(), "petstore-listener-")))
      const path = join(directory, "test.sock")
      const address = yield* NodeListener.serve(hello, {
        listener: "test",
        address: { path },
        shutdownGrace: 0
      })
      expect(address).toEqual({ path })
      expect(yield* exchange({ socketPath: path })).toEqual({ status: 200, body: "hello" })
      const error = yield* Effect.flip(
        NodeListener.serve(hello, { listener: "second", address: { path }, shutdownGrace: 0 })
      )
      expect(error.message).toBe(`the second listener cannot listen on ${path}: the socket is already in use`)
    })
  )
})

/** Serves `app` in a scope of its own, closed by the test. */
const serveInScope = <E, R>(app: Parameters<typeof serveOn<E, R>>[0], grace: Duration.Input) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    const address = yield* serveOn(app, grace).pipe(Scope.provide(scope))
    return { scope, port: address.port }
  })

/** How long closing `scope` takes, in milliseconds. */
const timeToClose = (scope: Scope.Closeable) =>
  Effect.map(Effect.timed(Scope.close(scope, Exit.void)), ([duration]) => Duration.toMillis(duration))

describe("closing", () => {
  it.live("ends idle kept-alive connections at once and refuses new ones", () =>
    Effect.gen(function* () {
      const { scope, port } = yield* serveInScope(hello, "10 seconds")
      const agent = new Agent({ keepAlive: true })
      expect(yield* exchange({ port }, agent)).toEqual({ status: 200, body: "hello" })
      // The client keeps its connection open: closing must not wait the grace period for it.
      expect(yield* timeToClose(scope)).toBeLessThan(1_000)
      expect(yield* Effect.flip(exchange({ port }))).toBe("ECONNREFUSED")
      agent.destroy()
    })
  )

  it.live("lets a request in flight finish within the grace period", () =>
    Effect.gen(function* () {
      const { scope, port } = yield* serveInScope(slow("400 millis"), "5 seconds")
      const inFlight = yield* Effect.forkChild(exchange({ port }))
      yield* Effect.sleep("100 millis")
      const closing = yield* Effect.forkChild(timeToClose(scope))
      yield* Effect.sleep("50 millis")
      expect(yield* Effect.flip(exchange({ port }))).toBe("ECONNREFUSED")
      expect(yield* Fiber.join(inFlight)).toEqual({ status: 200, body: "finally" })
      expect(yield* Fiber.join(closing)).toBeLessThan(2_000)
    })
  )

  it.live("cuts a request still running when the grace period ends", () =>
    Effect.gen(function* () {
      const { scope, port } = yield* serveInScope(slow("1 minute"), "300 millis")
      const inFlight = yield* Effect.forkChild(exchange({ port }))
      yield* Effect.sleep("100 millis")
      const closedAfter = yield* timeToClose(scope)
      expect(closedAfter).toBeGreaterThanOrEqual(250)
      expect(closedAfter).toBeLessThan(2_000)
      expect(yield* Effect.flip(Fiber.join(inFlight))).toBe("ECONNRESET")
    })
  )

  it.live("cuts a TLS handshake that never finishes when the grace period ends", () =>
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      // No certificate is needed: the client below never gets as far as asking for one.
      const server = createHttpsServer({})
      const { port } = yield* NodeListener.listen(server, {
        listener: "https",
        address: loopback,
        shutdownGrace: "300 millis"
      }).pipe(Scope.provide(scope))
      const silent = connect({ host: "127.0.0.1", port })
      const ended = Effect.callback<void>((resume) => void silent.once("close", () => resume(Effect.void)))
      yield* Effect.callback<void>((resume) => void silent.once("connect", () => resume(Effect.void)))
      const closedAfter = yield* timeToClose(scope)
      expect(closedAfter).toBeGreaterThanOrEqual(250)
      expect(closedAfter).toBeLessThan(2_000)
      yield* ended.pipe(Effect.timeout("1 second"))
    })
  )
})
