/**
 * The worker benchmark's results: `results/workers.md` (a table for the README, and the worker's
 * targets each met or not) and `results/workers.json` (the figures, with the machine they were
 * measured on).
 */
import { mkdir, rename, writeFile } from "node:fs/promises"
import { join } from "node:path"
import type { Machine } from "../Machine.js"
import { checkWorkerTargets, type WorkerTargetCheck } from "../Targets.js"
import type { WorkerRun } from "./WorkerThroughput.js"

export interface WorkerReport {
  readonly generatedAt: string
  readonly machine: Machine
  readonly domains: number
  readonly pinned: boolean
  readonly runs: ReadonlyArray<WorkerRun>
  /** Domains verified per second with 2 workers over with 1. */
  readonly scaling: number
  readonly targets: ReadonlyArray<WorkerTargetCheck>
}

export const buildWorkerReport = (
  machine: Machine,
  domains: number,
  pinned: boolean,
  runs: ReadonlyArray<WorkerRun>
): WorkerReport => {
  const one = runs.find((run) => run.workers === 1)
  const two = runs.find((run) => run.workers === 2)
  const scaling =
    one === undefined || two === undefined ? Number.NaN : two.verifiedPerSecond / one.verifiedPerSecond
  return {
    generatedAt: new Date().toISOString(),
    machine,
    domains,
    pinned,
    runs,
    scaling,
    targets: checkWorkerTargets(one?.verifiedPerSecond ?? Number.NaN, scaling)
  }
}

const measuredText = (check: WorkerTargetCheck): string =>
  !Number.isFinite(check.measured)
    ? "–"
    : check.unit === "×"
      ? `${check.measured.toFixed(2)}×`
      : `${check.measured.toFixed(0)} domains/s`

export const renderWorkerMarkdown = (report: WorkerReport): string =>
  [
    `Worker throughput of ${report.generatedAt.slice(0, 10)}: ${report.machine.cpu} (${report.machine.cores} cores), ` +
      `Node ${report.machine.node} (the same binary for every worker), PostgreSQL ${report.machine.postgres}; ${report.domains.toLocaleString("en")} due ` +
      "domains against a loopback DNS server that verifies each at once" +
      (report.pinned ? "; worker i on core i mod 2." : "; processes NOT pinned."),
    "",
    "| Workers | start s | verify s | domains verified/s | vs 1 worker |",
    "|--:|--:|--:|--:|--:|",
    ...report.runs.map((run) => {
      const one = report.runs.find((r) => r.workers === 1)
      const ratio = one === undefined ? Number.NaN : run.verifiedPerSecond / one.verifiedPerSecond
      return `| ${run.workers} | ${run.startSeconds.toFixed(1)} | ${run.verifySeconds.toFixed(1)} | ${run.verifiedPerSecond.toFixed(0)} | ${ratio.toFixed(2)}× |`
    }),
    "",
    "| Target | measured | |",
    "|---|--:|---|",
    ...report.targets.map(
      (check) => `| ${check.target} | ${measuredText(check)} | ${check.met ? "met" : "**not met**"} |`
    ),
    ""
  ].join("\n")

const writeAtomically = async (path: string, content: string) => {
  await writeFile(`${path}.tmp`, content)
  await rename(`${path}.tmp`, path)
}

export const writeWorkerReport = async (report: WorkerReport, outDirectory: string): Promise<void> => {
  await mkdir(outDirectory, { recursive: true })
  await writeAtomically(join(outDirectory, "workers.md"), renderWorkerMarkdown(report))
  await writeAtomically(join(outDirectory, "workers.json"), `${JSON.stringify(report, null, 2)}\n`)
}
