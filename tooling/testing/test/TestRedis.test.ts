/**
 * Redis for tests: the variable's server when it names one (nothing started), else one of the
 * scope's own. The machine's `redis-server` is run here (no container runtime is asked): it answers
 * while the scope is open and is gone once it closes.
 */
import { createConnection } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import * as TestRedis from "../src/TestRedis.js"
import * as TestServerSource from "../src/TestServerSource.js"
import { fixedProbes } from "./Probes.js"

/** What the server at `url` answers to PING, or the connection's error code. */
const ping = (url: string): Effect.Effect<string> =>
  Effect.promise(
    () =>
      new Promise<string>((resolve) => {
        const { hostname, port } = new URL(url)
        const socket = createConnection({ host: hostname, port: Number(port) })
        socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
        socket.once("connect", () => socket.write("PING\r\n"))
        socket.once("data", (chunk) => {
          socket.end()
          resolve(chunk.toString().trim())
        })
      })
  )

describe("TestRedis", () => {
  it.live("PETSTORE_TEST_REDIS_URL names the server: it is used, nothing is started or probed", () =>
    Effect.gen(function* () {
      const { probes, asked } = fixedProbes({
        containerRuntime: true,
        variables: { [TestRedis.urlVariable]: "redis://redis.example:6380" }
      })
      const redis = yield* Effect.scoped(TestRedis.makeWith(probes))
      expect(redis.url).toBe("redis://redis.example:6380")
      expect(asked).toEqual({ containerRuntime: 0, programs: [], elsewhere: [] })
    })
  )

  it.live("otherwise the machine's redis-server, on a free port, for the scope only", () =>
    Effect.gen(function* () {
      // The machine's programs, but never a container, and not CI's shared server.
      const probes: TestServerSource.Probes = {
        ...TestServerSource.liveProbes,
        variable: () => undefined,
        containerRuntime: Effect.succeed(false)
      }
      const scope = Scope.makeUnsafe()
      const redis = yield* Scope.provide(scope)(TestRedis.makeWith(probes))
      expect(redis.url).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/)
      expect(yield* ping(redis.url)).toBe("+PONG")
      yield* Scope.close(scope, Exit.void)
      expect(yield* ping(redis.url)).toBe("ECONNREFUSED")
    })
  )

  it.live("without the variable, a runtime or redis-server: the one line, naming the variable too", () =>
    Effect.gen(function* () {
      const { probes } = fixedProbes({ containerRuntime: false })
      const error = yield* Effect.flip(Effect.scoped(TestRedis.makeWith(probes)))
      expect(error.message).toBe(
        "redis-server: not found; set PETSTORE_TEST_REDIS_URL, install Debian's `redis-server` package or start Docker"
      )
    })
  )
})
