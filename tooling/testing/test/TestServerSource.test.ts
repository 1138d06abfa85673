/**
 * Where a test server comes from: a container when a runtime answers, else the local program, else
 * one line naming the server and how to get it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import * as TestServerSource from "../src/TestServerSource.js"
import { fixedProbes } from "./Probes.js"

const pebble: TestServerSource.TestServer = { program: "pebble", install: "Debian's `pebble` package" }

describe("TestServerSource.choose", () => {
  it.effect("a container runtime answers: a container, installed program or not", () =>
    Effect.gen(function* () {
      for (const programs of [{}, { pebble: "/usr/bin/pebble" }]) {
        const { probes, asked } = fixedProbes({ containerRuntime: true, programs })
        expect(yield* TestServerSource.choose(pebble, probes)).toEqual({ _tag: "Container" })
        expect(asked.programs).toEqual([])
      }
    })
  )

  it.effect("no container runtime, the program installed: the program, at its path", () =>
    Effect.gen(function* () {
      const { probes, asked } = fixedProbes({
        containerRuntime: false,
        programs: { pebble: "/usr/bin/pebble" }
      })
      expect(yield* TestServerSource.choose(pebble, probes)).toEqual({
        _tag: "LocalProgram",
        path: "/usr/bin/pebble"
      })
      expect(asked).toEqual({ containerRuntime: 1, programs: ["pebble"], elsewhere: [[]] })
    })
  )

  it.effect("a program kept off PATH is looked for where the server says too", () =>
    Effect.gen(function* () {
      const bin = "/usr/lib/postgresql/16/bin"
      const { probes, asked } = fixedProbes({
        containerRuntime: false,
        programs: { pg_ctl: `${bin}/pg_ctl` }
      })
      const postgres = { program: "pg_ctl", install: "Debian's `postgresql` package", elsewhere: [bin] }
      expect(yield* TestServerSource.choose(postgres, probes)).toEqual({
        _tag: "LocalProgram",
        path: `${bin}/pg_ctl`
      })
      expect(asked.elsewhere).toEqual([[bin]])
    })
  )

  it.effect("neither: fails with one line naming the server and how to get it", () =>
    Effect.gen(function* () {
      const { probes } = fixedProbes({ containerRuntime: false, programs: { dnsmasq: "/usr/sbin/dnsmasq" } })
      const error = yield* Effect.flip(TestServerSource.choose(pebble, probes))
      expect(error.reason).toBe("NotInstalled")
      expect(error.message).toBe("pebble: not found; install Debian's `pebble` package or start Docker")
    })
  )

  it.effect("a server a variable can name: the line says so too", () =>
    Effect.gen(function* () {
      const { probes } = fixedProbes({ containerRuntime: false })
      const error = yield* Effect.flip(
        TestServerSource.choose(
          {
            program: "redis-server",
            install: "Debian's `redis-server` package",
            variable: "PETSTORE_TEST_REDIS_URL"
          },
          probes
        )
      )
      expect(error.message).toBe(
        "redis-server: not found; set PETSTORE_TEST_REDIS_URL, install Debian's `redis-server` package or start Docker"
      )
      expect(error.message).not.toContain("\n")
    })
  )
})

describe("TestServerSource.configured", () => {
  it("is the variable's value; unset or empty is none", () => {
    const variables = { SET: "redis://127.0.0.1:6379", EMPTY: "" }
    const { probes } = fixedProbes({ containerRuntime: false, variables })
    expect(TestServerSource.configured("SET", probes)).toEqual(Option.some("redis://127.0.0.1:6379"))
    expect(TestServerSource.configured("EMPTY", probes)).toEqual(Option.none())
    expect(TestServerSource.configured("UNSET", probes)).toEqual(Option.none())
  })
})
