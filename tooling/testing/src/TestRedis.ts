/**
 * Redis for tests: `PETSTORE_TEST_REDIS_URL` when set (CI's running server), else one of the scope's
 * own on a free loopback port, from the `redis` image when a container runtime answers, else Debian's
 * `redis-server` (`TestServerSource`). A test that stops Redis and starts it again asks for one on a
 * port it keeps (`startOn`).
 */
import { createConnection } from "node:net"
import { Effect, Option, type Scope } from "effect"
import { freePort, type LoopbackServerError, startWithRetry } from "./LoopbackServer.js"
import * as TestServerProcess from "./TestServerProcess.js"
import * as TestServerSource from "./TestServerSource.js"

export const urlVariable = "PETSTORE_TEST_REDIS_URL"

export const program: TestServerProcess.ServerProgram = {
  program: "redis-server",
  install: "Debian's `redis-server` package",
  image: { name: "redis:7.4-alpine", entrypoint: "redis-server" }
}

export interface TestRedis {
  /** `redis://127.0.0.1:<port>` (or the variable's URL). */
  readonly url: string
}

/** Ready when Redis answers PING with PONG. */
const answersPing = (port: number): Effect.Effect<void, unknown> =>
  Effect.tryPromise(
    () =>
      new Promise<void>((resolve, reject) => {
        const socket = createConnection({ host: "127.0.0.1", port })
        let reply = ""
        socket.setTimeout(1_000, () => socket.destroy(new Error("no answer to PING")))
        socket.once("error", reject)
        socket.on("data", (chunk) => {
          reply += chunk.toString()
          if (!reply.includes("\r\n")) return
          socket.end()
          if (reply.startsWith("+PONG")) resolve()
          else reject(new Error(`PING answered ${reply.trim()}`))
        })
        socket.once("connect", () => socket.write("PING\r\n"))
      })
  )

/** Redis on 127.0.0.1:`port` for the scope (nothing saved); `server` says what a missing one needs. */
const serve = (server: TestServerProcess.ServerProgram, port: number, probes: TestServerSource.Probes) =>
  TestServerProcess.start(
    server,
    () => ({
      args: ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      ready: answersPing(port)
    }),
    probes
  ).pipe(Effect.as<TestRedis>({ url: `redis://127.0.0.1:${port}` }))

/** A Redis of the scope's own on 127.0.0.1:`port`, stopped when the scope closes. */
export const startOn = (
  port: number,
  probes: TestServerSource.Probes = TestServerSource.liveProbes
): Effect.Effect<TestRedis, LoopbackServerError, Scope.Scope> => serve(program, port, probes)

/** The Redis the tests share: the variable's, else one of the scope's own on a free port. */
export const makeWith = (
  probes: TestServerSource.Probes
): Effect.Effect<TestRedis, LoopbackServerError, Scope.Scope> => {
  const shared = { ...program, variable: urlVariable }
  return Option.match(TestServerSource.configured(urlVariable, probes), {
    onSome: (url) => Effect.succeed({ url }),
    onNone: () => startWithRetry(Effect.flatMap(freePort, (port) => serve(shared, port, probes)))
  })
}

export const make: Effect.Effect<TestRedis, LoopbackServerError, Scope.Scope> = Effect.suspend(() =>
  makeWith(TestServerSource.liveProbes)
)
