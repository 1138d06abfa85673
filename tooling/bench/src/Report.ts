/**
 * From the measurements of every round to what is published: per scenario and server the median of
 * the rounds' absolute figures and of their ratios to Fastify (each ratio taken within one round, so
 * that drift between rounds cancels out), cold starts likewise; as a Markdown table for the README
 * and as JSON (`latest.json`) for anyone who tracks the figures.
 */
import { mkdir, rename, writeFile } from "node:fs/promises"
import { dirname } from "node:path"
import type { LoadResult } from "./LoadJob.js"
import type { Machine } from "./Machine.js"
import type { Options } from "./Options.js"
import { type ScenarioName, scenarios } from "./Scenarios.js"
import { referenceServer, type ServerName, serverNames, serverTitles } from "./Servers.js"

export interface ScenarioMeasurement extends LoadResult {
  /** Resident memory of the server right after this scenario's load, MiB. */
  readonly rssMiB: number
  /** Answers whose status was not the scenario's expected one. */
  readonly unexpected: number
}

export interface RoundMeasurements {
  readonly coldStartMs: Partial<Record<ServerName, number>>
  readonly scenarios: Partial<Record<ScenarioName, Partial<Record<ServerName, ScenarioMeasurement>>>>
}

export interface Figures {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly rss: number
}

export interface Ratios {
  readonly rps: number
  readonly p99: number
  readonly rss: number
}

export interface ScenarioReport {
  readonly title: string
  readonly request: string
  readonly expectedStatus: number
  /** Medians over the rounds. */
  readonly absolute: Partial<Record<ServerName, Figures>>
  /** Medians over the rounds of each round's ratio to Fastify. */
  readonly ratios: Partial<Record<ServerName, Ratios>>
  readonly rounds: ReadonlyArray<Partial<Record<ServerName, ScenarioMeasurement>>>
}

export interface Report {
  readonly generatedAt: string
  readonly machine: Machine
  readonly settings: {
    readonly smoke: boolean
    readonly rounds: number
    readonly durationSeconds: number
    readonly warmupSeconds: number
    readonly connections: number
    readonly pipelining: 1
    readonly seededPets: number
    readonly loadGenerator: string
    readonly pinned: boolean
  }
  readonly units: {
    readonly rps: "requests/s"
    readonly latency: "ms"
    readonly rss: "MiB"
    readonly coldStart: "ms"
  }
  readonly reference: ServerName
  readonly servers: Readonly<Record<ServerName, string>>
  readonly scenarios: Partial<Record<ScenarioName, ScenarioReport>>
  readonly coldStart: {
    readonly absolute: Partial<Record<ServerName, number>>
    readonly ratios: Partial<Record<ServerName, number>>
    readonly rounds: ReadonlyArray<Partial<Record<ServerName, number>>>
  }
}

const median = (values: ReadonlyArray<number>): number => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2
}

const defined = <A>(values: ReadonlyArray<A | undefined>): Array<A> =>
  values.filter((value): value is A => value !== undefined)

export const buildReport = (
  options: Options,
  machine: Machine,
  loadGenerator: string,
  pinned: boolean,
  rounds: ReadonlyArray<RoundMeasurements>
): Report => {
  const scenarioReports: Partial<Record<ScenarioName, ScenarioReport>> = {}
  for (const name of options.scenarios) {
    const perRound = rounds.map((round) => round.scenarios[name] ?? {})
    const absolute: Partial<Record<ServerName, Figures>> = {}
    const ratios: Partial<Record<ServerName, Ratios>> = {}
    for (const server of serverNames) {
      const measured = defined(perRound.map((round) => round[server]))
      if (measured.length === 0) continue
      absolute[server] = {
        rps: median(measured.map((m) => m.rps)),
        p50: median(measured.map((m) => m.p50)),
        p99: median(measured.map((m) => m.p99)),
        rss: median(measured.map((m) => m.rssMiB))
      }
      const paired = defined(
        perRound.map((round) => {
          const own = round[server]
          const reference = round[referenceServer]
          return own === undefined || reference === undefined ? undefined : { own, reference }
        })
      )
      ratios[server] = {
        rps: median(paired.map(({ own, reference }) => own.rps / reference.rps)),
        p99: median(paired.map(({ own, reference }) => own.p99 / reference.p99)),
        rss: median(paired.map(({ own, reference }) => own.rssMiB / reference.rssMiB))
      }
    }
    const scenario = scenarios[name]
    scenarioReports[name] = {
      title: scenario.title,
      request: scenario.request,
      expectedStatus: scenario.expectedStatus,
      absolute,
      ratios,
      rounds: perRound
    }
  }
  const coldRounds = rounds.map((round) => round.coldStartMs)
  const coldAbsolute: Partial<Record<ServerName, number>> = {}
  const coldRatios: Partial<Record<ServerName, number>> = {}
  for (const server of serverNames) {
    const measured = defined(coldRounds.map((round) => round[server]))
    if (measured.length === 0) continue
    coldAbsolute[server] = median(measured)
    coldRatios[server] = median(
      defined(
        coldRounds.map((round) => {
          const own = round[server]
          const reference = round[referenceServer]
          return own === undefined || reference === undefined ? undefined : own / reference
        })
      )
    )
  }
  return {
    generatedAt: new Date().toISOString(),
    machine,
    settings: {
      smoke: options.smoke,
      rounds: options.rounds,
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
      connections: options.connections,
      pipelining: 1,
      seededPets: options.pets,
      loadGenerator,
      pinned
    },
    units: { rps: "requests/s", latency: "ms", rss: "MiB", coldStart: "ms" },
    reference: referenceServer,
    servers: serverTitles,
    scenarios: scenarioReports,
    coldStart: { absolute: coldAbsolute, ratios: coldRatios, rounds: coldRounds }
  }
}

const fixed = (value: number | undefined, digits: number): string =>
  value === undefined || !Number.isFinite(value) ? "–" : value.toFixed(digits)

const times = (value: number | undefined): string =>
  value === undefined || !Number.isFinite(value) ? "–" : `${value.toFixed(2)}×`

export const renderMarkdown = (report: Report): string => {
  const { machine, settings } = report
  const lines: Array<string> = [
    `Benchmark of ${report.generatedAt.slice(0, 10)}: ${machine.cpu} (${machine.cores} cores), Node ${machine.node}, ` +
      `PostgreSQL ${machine.postgres}; ${settings.seededPets.toLocaleString("en")} animals; ` +
      `${settings.rounds} round(s) of ${settings.durationSeconds} s per scenario and server, interleaved; ` +
      `${settings.loadGenerator}, ${settings.connections} connections, no pipelining; ` +
      (settings.pinned
        ? "each server on core 0, the load generator on core 1."
        : "processes NOT pinned to cores.") +
      (settings.smoke ? " **Smoke run: these numbers mean nothing.**" : ""),
    "",
    "| Scenario | Server | req/s | p50 ms | p99 ms | RSS MiB | req/s vs Fastify | p99 vs Fastify | RSS vs Fastify |",
    "|---|---|--:|--:|--:|--:|--:|--:|--:|"
  ]
  const warnings: Array<string> = []
  for (const [name, scenario] of Object.entries(report.scenarios)) {
    if (scenario === undefined) continue
    for (const server of serverNames) {
      const figures = scenario.absolute[server]
      if (figures === undefined) continue
      const ratios = scenario.ratios[server]
      lines.push(
        `| ${scenario.title} | ${report.servers[server]} | ${fixed(figures.rps, 0)} | ${fixed(figures.p50, 1)} | ` +
          `${fixed(figures.p99, 1)} | ${fixed(figures.rss, 0)} | ${times(ratios?.rps)} | ${times(ratios?.p99)} | ${times(ratios?.rss)} |`
      )
      for (const round of scenario.rounds) {
        const measured = round[server]
        if (measured === undefined) continue
        if (measured.unexpected > 0 || measured.errors > 0)
          warnings.push(
            `${name} on ${server}: ${measured.unexpected} answers other than ${scenario.expectedStatus}, ${measured.errors} errors`
          )
        if (measured.loadCpu > 0.75)
          warnings.push(
            `${name} on ${server}: the load generator used ${Math.round(measured.loadCpu * 100)}% of its core: it may be what limits this figure`
          )
      }
    }
  }
  lines.push("", "| Cold start (spawn → first 200 on /v1/pets) | ms | vs Fastify |", "|---|--:|--:|")
  for (const server of serverNames) {
    const ms = report.coldStart.absolute[server]
    if (ms === undefined) continue
    lines.push(`| ${report.servers[server]} | ${fixed(ms, 0)} | ${times(report.coldStart.ratios[server])} |`)
  }
  if (warnings.length > 0) lines.push("", ...[...new Set(warnings)].map((warning) => `- ⚠ ${warning}`))
  return `${lines.join("\n")}\n`
}

/** Writes beside the target first (`*.tmp`, ignored by git), then renames: readers never see half a file. */
const writeAtomically = async (path: string, content: string): Promise<void> => {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(`${path}.tmp`, content)
  await rename(`${path}.tmp`, path)
}

export const writeReport = async (report: Report, markdownFile: string, jsonFile: string): Promise<void> => {
  await writeAtomically(markdownFile, renderMarkdown(report))
  await writeAtomically(jsonFile, `${JSON.stringify(report, null, 2)}\n`)
}
