/**
 * Running a test server from where the decision says: with neither a container runtime nor the
 * program nothing starts and the one line is the failure; the local program is run with the
 * invocation for a local run, and a program that exits before it is ready fails with its output.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as TestServerProcess from "../src/TestServerProcess.js"
import { fixedProbes } from "./Probes.js"

const shell: TestServerProcess.ServerProgram = {
  program: "sh",
  install: "a POSIX shell",
  image: { name: "alpine:3.22", entrypoint: "/bin/sh" }
}

describe("TestServerProcess.start", () => {
  it.live("neither a runtime nor the program: the one line, and nothing is asked to get ready", () =>
    Effect.gen(function* () {
      const { probes } = fixedProbes({ containerRuntime: false })
      let readinessAsked = 0
      const error = yield* Effect.flip(
        Effect.scoped(
          TestServerProcess.start(
            shell,
            () => ({ args: [], ready: Effect.sync(() => void readinessAsked++) }),
            probes
          )
        )
      )
      expect(error.message).toBe("sh: not found; install a POSIX shell or start Docker")
      expect(readinessAsked).toBe(0)
    })
  )

  it.live(
    "the local program runs with the local invocation; exiting before ready fails with its output",
    () =>
      Effect.gen(function* () {
        const { probes } = fixedProbes({ containerRuntime: false, programs: { sh: "/bin/sh" } })
        const sources: Array<string> = []
        const error = yield* Effect.flip(
          Effect.scoped(
            TestServerProcess.start(
              shell,
              (source) => {
                sources.push(source._tag)
                return { args: ["-c", "echo cannot listen; exit 3"], ready: Effect.fail("not yet") }
              },
              probes
            )
          )
        )
        expect(sources).toEqual(["LocalProgram"])
        expect(error.reason).toBe("NotStarted")
        expect(error.message).toBe("sh exited with code 3: cannot listen")
      })
  )
})
