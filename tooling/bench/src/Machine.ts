/**
 * The machine a benchmark ran on, printed next to its figures: numbers without it cannot be compared.
 */
import { readFileSync } from "node:fs"
import { availableParallelism, release } from "node:os"

export interface Machine {
  readonly cpu: string
  readonly cores: number
  readonly node: string
  readonly os: string
  readonly postgres: string
}

const cpuModel = (): string => {
  try {
    const cpuinfo = readFileSync("/proc/cpuinfo", "utf8")
    return /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? "unknown CPU"
  } catch {
    return "unknown CPU"
  }
}

export const describeMachine = (postgres: string): Machine => ({
  cpu: cpuModel(),
  cores: availableParallelism(),
  node: process.version,
  os: `${process.platform} ${release()} ${process.arch}`,
  postgres
})
