/**
 * From the measurements of every round to what is published: per scenario and server the median of
 * the rounds' absolute figures and of their ratios to Fastify with pino's request log (each ratio
 * taken within one round, so that drift between rounds cancels out) and to Fastify without a
 * logger, cold starts likewise, and the targets each marked met or not; as Markdown tables for the
 * README and as JSON (`latest.json`) for anyone who tracks the figures.
 */
import { mkdir, rename, writeFile } from "node:fs/promises"
import { dirname } from "node:path"
import type { LoadResult } from "./LoadJob.js"
import type { Machine } from "./Machine.js"
import type { Options } from "./Options.js"
import { isScenarioName, type ScenarioName, scenarios } from "./Scenarios.js"
import {
  noLogReferenceServer,
  referenceServer,
  type ServerName,
  serverNames,
  serverTitles
} from "./Servers.js"
import {
  checkTarget,
  coldStartTarget,
  p99Target,
  rpsTargets,
  rssTarget,
  type TargetCheck
} from "./Targets.js"

interface ScenarioMeasurement extends LoadResult {
  /** Resident memory of the server right after this scenario's load, MiB. */
  readonly rssMiB: number
  /** Answers whose status was not the scenario's expected one. */
  readonly unexpected: number
}

export interface RoundMeasurements {
  readonly coldStartMs: Partial<Record<ServerName, number>>
  readonly scenarios: Partial<Record<ScenarioName, Partial<Record<ServerName, ScenarioMeasurement>>>>
}

interface Figures {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly rss: number
}

interface Ratios {
  readonly rps: number
  readonly p99: number
  readonly rss: number
}

interface ScenarioReport {
  readonly title: string
  readonly request: string
  readonly expectedStatus: number
  /** Medians over the rounds. */
  readonly absolute: Partial<Record<ServerName, Figures>>
  /** Medians over the rounds of each round's ratio to the reference (Fastify with pino). */
  readonly ratios: Partial<Record<ServerName, Ratios>>
  /** The same to Fastify without a logger. */
  readonly noLogRatios: Partial<Record<ServerName, Ratios>>
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
  readonly noLogReference: ServerName
  readonly servers: Readonly<Record<ServerName, string>>
  readonly scenarios: Partial<Record<ScenarioName, ScenarioReport>>
  readonly coldStart: {
    readonly absolute: Partial<Record<ServerName, number>>
    readonly ratios: Partial<Record<ServerName, number>>
    readonly noLogRatios: Partial<Record<ServerName, number>>
    readonly rounds: ReadonlyArray<Partial<Record<ServerName, number>>>
  }
  /** The product's targets, each met or not (ratios to the reference). */
  readonly targets: ReadonlyArray<TargetCheck>
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

/** Each round's `own / reference` of one figure, paired within the round, then their median. */
const medianRatio = <M>(
  perRound: ReadonlyArray<Partial<Record<ServerName, M>>>,
  server: ServerName,
  reference: ServerName,
  figure: (measured: M) => number
): number =>
  median(
    defined(
      perRound.map((round) => {
        const own = round[server]
        const base = round[reference]
        return own === undefined || base === undefined ? undefined : figure(own) / figure(base)
      })
    )
  )

const ratiosTo = (
  perRound: ReadonlyArray<Partial<Record<ServerName, ScenarioMeasurement>>>,
  server: ServerName,
  reference: ServerName
): Ratios => ({
  rps: medianRatio(perRound, server, reference, (m) => m.rps),
  p99: medianRatio(perRound, server, reference, (m) => m.p99),
  rss: medianRatio(perRound, server, reference, (m) => m.rssMiB)
})

const scenarioLimit = (measure: keyof Ratios, scenario: ScenarioName): number =>
  measure === "rps" ? rpsTargets[scenario] : measure === "p99" ? p99Target : rssTarget

/** Every measured scenario's req/s targets, then p99's, then RSS's, then the cold start's. */
const checkTargets = (
  scenarioReports: Partial<Record<ScenarioName, ScenarioReport>>,
  coldRatio: number | undefined,
  coldNoLogRatio: number | undefined
): Array<TargetCheck> => {
  const reports = Object.entries(scenarioReports).flatMap(([name, report]) =>
    report !== undefined && isScenarioName(name) ? [{ name, report }] : []
  )
  const checks = (["rps", "p99", "rss"] as const).flatMap((measure) =>
    reports.map(({ name, report }) =>
      checkTarget(
        measure,
        name,
        scenarioLimit(measure, name),
        report.ratios.product?.[measure] ?? Number.NaN,
        report.noLogRatios.product?.[measure] ?? Number.NaN
      )
    )
  )
  checks.push(
    checkTarget(
      "coldStart",
      undefined,
      coldStartTarget,
      coldRatio ?? Number.NaN,
      coldNoLogRatio ?? Number.NaN
    )
  )
  return checks
}

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
    const noLogRatios: Partial<Record<ServerName, Ratios>> = {}
    for (const server of serverNames) {
      const measured = defined(perRound.map((round) => round[server]))
      if (measured.length === 0) continue
      absolute[server] = {
        rps: median(measured.map((m) => m.rps)),
        p50: median(measured.map((m) => m.p50)),
        p99: median(measured.map((m) => m.p99)),
        rss: median(measured.map((m) => m.rssMiB))
      }
      ratios[server] = ratiosTo(perRound, server, referenceServer)
      noLogRatios[server] = ratiosTo(perRound, server, noLogReferenceServer)
    }
    const scenario = scenarios[name]
    scenarioReports[name] = {
      title: scenario.title,
      request: scenario.request,
      expectedStatus: scenario.expectedStatus,
      absolute,
      ratios,
      noLogRatios,
      rounds: perRound
    }
  }
  const coldRounds = rounds.map((round) => round.coldStartMs)
  const coldAbsolute: Partial<Record<ServerName, number>> = {}
  const coldRatios: Partial<Record<ServerName, number>> = {}
  const coldNoLogRatios: Partial<Record<ServerName, number>> = {}
  for (const server of serverNames) {
    const measured = defined(coldRounds.map((round) => round[server]))
    if (measured.length === 0) continue
    coldAbsolute[server] = median(measured)
    coldRatios[server] = medianRatio(coldRounds, server, referenceServer, (ms) => ms)
    coldNoLogRatios[server] = medianRatio(coldRounds, server, noLogReferenceServer, (ms) => ms)
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
    noLogReference: noLogReferenceServer,
    servers: serverTitles,
    scenarios: scenarioReports,
    coldStart: {
      absolute: coldAbsolute,
      ratios: coldRatios,
      noLogRatios: coldNoLogRatios,
      rounds: coldRounds
    },
    targets: checkTargets(scenarioReports, coldRatios.product, coldNoLogRatios.product)
  }
}

const fixed = (value: number | undefined, digits: number): string =>
  value === undefined || !Number.isFinite(value) ? "–" : value.toFixed(digits)

const times = (value: number | undefined): string =>
  value === undefined || !Number.isFinite(value) ? "–" : `${value.toFixed(2)}×`

const scenarioTitle = (scenario: ScenarioName | undefined): string =>
  scenario === undefined ? "spawn → first 200 on /v1/pets" : scenarios[scenario].title

export const renderMarkdown = (report: Report): string => {
  const { machine, settings } = report
  const reference = "Fastify + pino"
  const noLog = "Fastify, no log"
  const lines: Array<string> = [
    `Benchmark of ${report.generatedAt.slice(0, 10)}: ${machine.cpu} (${machine.cores} cores), Node ${machine.node} ` +
      "(the same binary for every server and the load generator), " +
      `PostgreSQL ${machine.postgres}; ${settings.seededPets.toLocaleString("en")} animals; ` +
      `${settings.rounds} round(s) of ${settings.durationSeconds} s per scenario and server, interleaved; ` +
      `${settings.loadGenerator}, ${settings.connections} connections, no pipelining; ` +
      (settings.pinned
        ? "each server on core 0, the load generator on core 1; "
        : "processes NOT pinned to cores; ") +
      "the product (at `LOG_LEVEL=Info`) and the reference write one JSON line per request to stdout, " +
      "which is /dev/null for every server." +
      (settings.smoke ? " **Smoke run: these numbers mean nothing.**" : ""),
    "",
    `Ratios are to ${report.servers[report.reference]} (the reference, "${reference}" below); ` +
      `${report.servers[report.noLogReference]} ("${noLog}") is the same application without a logger.`,
    "",
    `| Scenario | Server | req/s | p50 ms | p99 ms | RSS MiB | req/s vs ${reference} | p99 vs ${reference} | RSS vs ${reference} |`,
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
  lines.push(
    "",
    `| Cold start (spawn → first 200 on /v1/pets) | ms | vs ${reference} | vs ${noLog} |`,
    "|---|--:|--:|--:|"
  )
  for (const server of serverNames) {
    const ms = report.coldStart.absolute[server]
    if (ms === undefined) continue
    lines.push(
      `| ${report.servers[server]} | ${fixed(ms, 0)} | ${times(report.coldStart.ratios[server])} | ` +
        `${times(report.coldStart.noLogRatios[server])} |`
    )
  }
  const met = report.targets.filter((check) => check.met).length
  lines.push(
    "",
    `Targets of the product: ${met} of ${report.targets.length} met` +
      (settings.smoke ? " (smoke run: not judged)." : "."),
    "",
    `| Target (vs ${reference}) | Scenario | product vs ${reference} | product vs ${noLog} (not judged) | |`,
    "|---|---|--:|--:|---|"
  )
  for (const check of report.targets)
    lines.push(
      `| ${check.target} | ${scenarioTitle(check.scenario)} | ${times(check.ratio)} | ` +
        `${times(check.ratioToNoLog)} | ${check.met ? "met" : "**not met**"} |`
    )
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
