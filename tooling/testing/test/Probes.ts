/**
 * Probes for the server-source decision with fixed answers, counting what they were asked: a test
 * states what the machine has without needing Docker or the programs.
 */
import { Effect, Option } from "effect"
import type * as TestServerSource from "../src/TestServerSource.js"

export interface FixedMachine {
  readonly containerRuntime: boolean
  /** Installed programs and their paths. */
  readonly programs?: Readonly<Record<string, string>>
  readonly variables?: Readonly<Record<string, string>>
}

export const fixedProbes = (machine: FixedMachine) => {
  const asked = {
    containerRuntime: 0,
    programs: [] as Array<string>,
    /** Where else each program was looked for. */
    elsewhere: [] as Array<ReadonlyArray<string>>
  }
  const probes: TestServerSource.Probes = {
    variable: (name) => machine.variables?.[name],
    containerRuntime: Effect.sync(() => {
      asked.containerRuntime++
      return machine.containerRuntime
    }),
    locateProgram: (program, elsewhere) =>
      Effect.sync(() => {
        asked.programs.push(program)
        asked.elsewhere.push(elsewhere)
        return Option.fromNullishOr(machine.programs?.[program])
      })
  }
  return { probes, asked }
}
