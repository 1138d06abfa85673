/**
 * The performance targets the product is held to, and their check against a run: every HTTP target
 * is a bound on the product's ratio to Fastify with pino's request log (the reference), taken as the
 * median over rounds of each round's ratio; the worker's are absolute (one worker) and relative (two
 * to one). Each check also carries the ratio to Fastify without a logger, shown for information only.
 */
import type { ScenarioName } from "./Scenarios.js"

/** Requests per second of the product, at least this times the reference's. */
export const rpsTargets: Readonly<Record<ScenarioName, number>> = {
  "list-status": 0.8,
  "list-next": 0.8,
  "get-by-id": 0.8,
  create: 0.8,
  unauthorized: 0.5
}

/** In every scenario, at most this times the reference's. */
export const p99Target = 1.5
export const rssTarget = 1.3

/** Spawn to the first `200`, at most this times the reference's. */
export const coldStartTarget = 1.5

/** Domains verified per second by one worker process, at least. */
const oneWorkerTarget = 1_000

/** Domains verified per second by two worker processes, at least this times one's. */
const twoWorkersTarget = 1.7

export type TargetMeasure = "rps" | "p99" | "rss" | "coldStart"

export interface TargetCheck {
  readonly measure: TargetMeasure
  /** The scenario, for the measures taken per scenario. */
  readonly scenario?: ScenarioName
  /** For the report: "req/s ≥ 0.8×", "p99 ≤ 1.5×", … */
  readonly target: string
  readonly bound: "atLeast" | "atMost"
  readonly limit: number
  /** The product's ratio to the reference (NaN when it was not measured: not met). */
  readonly ratio: number
  /** The product's ratio to Fastify without a logger: not judged. */
  readonly ratioToNoLog: number
  readonly met: boolean
}

const labels: Readonly<Record<TargetMeasure, string>> = {
  rps: "req/s",
  p99: "p99",
  rss: "RSS",
  coldStart: "cold start"
}

const meets = (bound: "atLeast" | "atMost", value: number, limit: number): boolean =>
  Number.isFinite(value) && (bound === "atLeast" ? value >= limit : value <= limit)

export const checkTarget = (
  measure: TargetMeasure,
  scenario: ScenarioName | undefined,
  limit: number,
  ratio: number,
  ratioToNoLog: number
): TargetCheck => {
  const bound = measure === "rps" ? "atLeast" : "atMost"
  return {
    measure,
    ...(scenario === undefined ? {} : { scenario }),
    target: `${labels[measure]} ${bound === "atLeast" ? "≥" : "≤"} ${limit}×`,
    bound,
    limit,
    ratio,
    ratioToNoLog,
    met: meets(bound, ratio, limit)
  }
}

export interface WorkerTargetCheck {
  readonly target: string
  /** Of `limit` and `measured`. */
  readonly unit: "domains/s" | "×"
  readonly limit: number
  readonly measured: number
  readonly met: boolean
}

/** One worker's rate against its floor, and two workers' rate over one's against theirs. */
export const checkWorkerTargets = (
  oneWorkerPerSecond: number,
  scaling: number
): ReadonlyArray<WorkerTargetCheck> => [
  {
    target: `1 worker ≥ ${oneWorkerTarget.toLocaleString("en")} domains/s`,
    unit: "domains/s",
    limit: oneWorkerTarget,
    measured: oneWorkerPerSecond,
    met: meets("atLeast", oneWorkerPerSecond, oneWorkerTarget)
  },
  {
    target: `2 workers ≥ ${twoWorkersTarget}× 1 worker`,
    unit: "×",
    limit: twoWorkersTarget,
    measured: scaling,
    met: meets("atLeast", scaling, twoWorkersTarget)
  }
]
