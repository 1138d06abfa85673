/**
 * The runner's options, from flags (`--duration 10`, `--rounds 3`, `--smoke`, …) or the matching
 * `BENCH_*` environment variables; a flag wins. `--smoke` is the CI version: one round of one second
 * on two scenarios and a small seed, to prove the benchmark still runs, never to judge its numbers.
 */
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { isScenarioName, type ScenarioName, scenarioNames } from "./Scenarios.js"

export interface Options {
  readonly smoke: boolean
  /** Seconds of measured load per scenario, server and round. */
  readonly durationSeconds: number
  readonly rounds: number
  readonly connections: number
  /** Seconds of unmeasured load per scenario after each start (JIT warm-up). */
  readonly warmupSeconds: number
  readonly pets: number
  /** How many `Link rel=next` pages are collected for the cursor scenario. */
  readonly cursorPages: number
  readonly scenarios: ReadonlyArray<ScenarioName>
  /** Where `latest.md` and `latest.json` (or `workers.md` and `workers.json`) are written. */
  readonly outDirectory: string
  /** The worker-throughput mode instead of the HTTP benchmark. */
  readonly workers: boolean
  /** Due domains seeded for each worker run. */
  readonly domains: number
}

const usage = `usage: node tooling/bench/dist/main.js [options]   (or: pnpm bench [options])

  --duration <s>      measured seconds per scenario, server and round (default 10; BENCH_DURATION)
  --rounds <n>        rounds, servers interleaved A B C A B C … (default 3; BENCH_ROUNDS)
  --connections <n>   concurrent connections, no pipelining (default 64; BENCH_CONNECTIONS)
  --warmup <s>        unmeasured seconds per scenario after each start (default 2; BENCH_WARMUP)
  --pets <n>          animals seeded (default 100000; BENCH_PETS)
  --scenarios <list>  comma-separated subset of ${scenarioNames.join(", ")}
  --out <dir>         where latest.md and latest.json go (default tooling/bench/results; BENCH_OUT)
  --smoke             CI: 1 round, 1 s, 2 scenarios, 1000 animals, no warm-up (BENCH_SMOKE=1)

  --workers           instead: domains verified per second by 1 and 2 worker processes (BENCH_WORKERS=1)
  --domains <n>       due domains per worker run (default 10000, 200 with --smoke; BENCH_DOMAINS)
`

const defaultOutDirectory = resolve(dirname(fileURLToPath(import.meta.url)), "../results")

const positive = (name: string, text: string, integer: boolean): number => {
  const value = Number(text)
  if (!Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value)))
    throw new Error(`${name}: must be a ${integer ? "whole " : ""}number ≥ 0, got ${JSON.stringify(text)}`)
  return value
}

export const parseOptions = (argv: ReadonlyArray<string>, env: NodeJS.ProcessEnv): Options => {
  const flags = new Map<string, string>()
  const known = [
    "smoke",
    "help",
    "workers",
    "domains",
    "duration",
    "rounds",
    "connections",
    "warmup",
    "pets",
    "scenarios",
    "out"
  ]
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i] ?? ""
    if (argument === "--smoke" || argument === "--help" || argument === "--workers") {
      flags.set(argument.slice(2), "1")
      continue
    }
    const match = /^--([a-z]+)(?:=(.*))?$/.exec(argument)
    if (match?.[1] === undefined) throw new Error(`unknown argument ${JSON.stringify(argument)}\n\n${usage}`)
    if (!known.includes(match[1])) throw new Error(`unknown option --${match[1]}\n\n${usage}`)
    const value = match[2] ?? argv[++i]
    if (value === undefined) throw new Error(`--${match[1]} needs a value\n\n${usage}`)
    flags.set(match[1], value)
  }
  if (flags.has("help")) throw new Error(usage)

  const setting = (name: string): string | undefined => flags.get(name) ?? env[`BENCH_${name.toUpperCase()}`]
  const flag = (name: string) => setting(name) === "1" || setting(name) === "true"
  const smoke = flag("smoke")
  const number = (name: string, fallback: number, smokeValue: number, integer: boolean): number => {
    const text = setting(name)
    return text === undefined ? (smoke ? smokeValue : fallback) : positive(`--${name}`, text, integer)
  }
  const scenarioList = setting("scenarios")
  const scenarios =
    scenarioList === undefined
      ? smoke
        ? (["list-next", "create"] as const)
        : scenarioNames
      : scenarioList.split(",").map((name) => {
          if (!isScenarioName(name))
            throw new Error(
              `--scenarios: unknown ${JSON.stringify(name)}; known: ${scenarioNames.join(", ")}`
            )
          return name
        })
  const rounds = number("rounds", 3, 1, true)
  const connections = number("connections", 64, 8, true)
  if (rounds < 1 || connections < 1) throw new Error("--rounds and --connections must be at least 1")
  const pets = number("pets", 100_000, 1_000, true)
  if (pets < 1) throw new Error("--pets must be at least 1")
  return {
    smoke,
    durationSeconds: number("duration", 10, 1, false),
    rounds,
    connections,
    warmupSeconds: number("warmup", 2, 0, false),
    pets,
    cursorPages: smoke ? 20 : 250,
    scenarios,
    outDirectory: resolve(setting("out") ?? defaultOutDirectory),
    workers: flag("workers"),
    domains: number("domains", 10_000, 200, true)
  }
}

export const resultsFile = (options: Options, extension: "md" | "json"): string =>
  join(options.outDirectory, `latest.${extension}`)
