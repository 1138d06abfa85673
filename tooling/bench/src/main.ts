/**
 * `pnpm bench`: the built product next to two Fastify 5 baselines (with pino's request log, the
 * reference, and without a logger) and a raw `node:http` one, on a throwaway database seeded with
 * 100,000 animals; rounds interleaved (A B C D A B C D …), each server on core 0 and the load
 * generator on core 1, all on this process's Node; per scenario req/s, p50, p99, RSS after load and
 * the ratios to the reference of the same round, plus cold starts, and the targets met or not.
 * Writes `results/latest.md` and `latest.json`. With `--workers`: the worker's domains verified per
 * second, 1 and 2 processes (`results/workers.*`).
 */
import { randomBytes } from "node:crypto"
import { existsSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  type BenchDatabase,
  createBenchDatabase,
  dropBenchDatabase,
  seedPets,
  serverVersion
} from "./BenchDatabase.js"
import { killAllChildren } from "./Children.js"
import { collectCursorPaths } from "./CursorPaths.js"
import { runLoad } from "./LoadJob.js"
import { describeMachine } from "./Machine.js"
import { type Options, parseOptions, resultsFile } from "./Options.js"
import { loadCore, pinningAvailable } from "./Pinning.js"
import { buildReport, type RoundMeasurements, renderMarkdown, writeReport } from "./Report.js"
import { type ScenarioContext, type ScenarioName, scenarios } from "./Scenarios.js"
import {
  type RunningServer,
  repositoryRoot,
  type ServerEnvironment,
  serverNames,
  startServer
} from "./Servers.js"
import { buildWorkerReport, renderWorkerMarkdown, writeWorkerReport } from "./workers/WorkerReport.js"
import { measureWorkerThroughput } from "./workers/WorkerThroughput.js"

const log = (line: string) => process.stderr.write(`${line}\n`)

const autocannonVersion = (): string => {
  const manifest: unknown = createRequire(import.meta.url)("autocannon/package.json")
  const version =
    typeof manifest === "object" && manifest !== null && "version" in manifest
      ? String(manifest.version)
      : "?"
  return `autocannon ${version}`
}

const measure = async (
  server: RunningServer,
  scenario: ScenarioName,
  durationSeconds: number,
  options: Options,
  context: ScenarioContext
) => {
  const result = await runLoad(
    { url: server.url, scenario, connections: options.connections, durationSeconds, context },
    loadCore
  )
  const answered = Object.values(result.statusCounts).reduce((sum, count) => sum + count, 0)
  const expected = result.statusCounts[String(scenarios[scenario].expectedStatus)] ?? 0
  return { ...result, rssMiB: await server.rssMiB(), unexpected: answered - expected }
}

const runRound = async (
  round: number,
  options: Options,
  environment: ServerEnvironment,
  baseContext: Omit<ScenarioContext, "runTag">
): Promise<RoundMeasurements> => {
  const measurements: RoundMeasurements = { coldStartMs: {}, scenarios: {} }
  for (const name of serverNames) {
    const server = await startServer(name, environment)
    measurements.coldStartMs[name] = server.coldStartMs
    log(`round ${round}, ${name}: cold start ${server.coldStartMs.toFixed(0)} ms`)
    try {
      if (options.warmupSeconds > 0)
        for (const scenario of options.scenarios)
          await measure(server, scenario, options.warmupSeconds, options, {
            ...baseContext,
            runTag: `r${round}-${name}-warmup`
          })
      for (const scenario of options.scenarios) {
        const measured = await measure(server, scenario, options.durationSeconds, options, {
          ...baseContext,
          runTag: `r${round}-${name}`
        })
        const perScenario = measurements.scenarios[scenario] ?? {}
        perScenario[name] = measured
        measurements.scenarios[scenario] = perScenario
        log(
          `round ${round}, ${name}, ${scenario}: ${measured.rps.toFixed(0)} req/s, p50 ${measured.p50} ms, ` +
            `p99 ${measured.p99} ms, RSS ${measured.rssMiB.toFixed(0)} MiB` +
            (measured.unexpected > 0 ? `, ${measured.unexpected} unexpected answers` : "")
        )
      }
    } finally {
      await server.stop()
    }
  }
  return measurements
}

const run = async (options: Options): Promise<void> => {
  for (const script of ["apps/api/dist/main.js", ...(options.workers ? ["apps/worker/dist/main.js"] : [])])
    if (!existsSync(join(repositoryRoot, script)))
      throw new Error(`${script} is missing: run \`pnpm bench\`, which builds the product first`)
  const key = `pk_live_bench_${randomBytes(24).toString("hex")}`
  const dataDirectory = await mkdtemp(join(tmpdir(), "petstore-bench-data-"))
  let database: BenchDatabase | undefined
  const cleanUp = async () => {
    killAllChildren()
    if (database !== undefined)
      await dropBenchDatabase(database).catch((error: unknown) => log(String(error)))
    database = undefined
    await rm(dataDirectory, { recursive: true, force: true })
  }
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.once(signal, () => {
      log(`${signal}: stopping the servers and dropping the database`)
      void cleanUp().finally(() => process.exit(130))
    })
  process.once("exit", killAllChildren)

  try {
    database = await createBenchDatabase()
    const environment: ServerEnvironment = { databaseUrl: database.url, key, dataDirectory }
    log(`database ${database.name}: migrating (the product migrates at start-up)`)
    const migrating = await startServer("product", environment)
    let cursorPaths: Array<string> = []
    try {
      if (!options.workers) {
        log(`seeding ${options.pets} animals`)
        await seedPets(database, options.pets)
        cursorPaths = await collectCursorPaths(migrating.url, key, "/v1/pets?limit=20", options.cursorPages)
      }
    } finally {
      await migrating.stop()
    }
    const machine = describeMachine(await serverVersion(database))
    if (!pinningAvailable) log("taskset is missing or there is one core: processes are NOT pinned")

    if (options.workers) {
      const runs = await measureWorkerThroughput(database, options.domains, dataDirectory, log)
      const report = buildWorkerReport(machine, options.domains, pinningAvailable, runs)
      await writeWorkerReport(report, options.outDirectory)
      process.stdout.write(renderWorkerMarkdown(report))
      log(
        `written: ${join(options.outDirectory, "workers.md")} and ${join(options.outDirectory, "workers.json")}`
      )
      return
    }

    const rounds: Array<RoundMeasurements> = []
    for (let round = 1; round <= options.rounds; round++)
      rounds.push(await runRound(round, options, environment, { key, cursorPaths, seededPets: options.pets }))

    const report = buildReport(options, machine, autocannonVersion(), pinningAvailable, rounds)
    await writeReport(report, resultsFile(options, "md"), resultsFile(options, "json"))
    process.stdout.write(renderMarkdown(report))
    log(`written: ${resultsFile(options, "md")} and ${resultsFile(options, "json")}`)
  } finally {
    await cleanUp()
  }
}

/** The Node every server, worker and load generator runs on (`process.execPath`): the product needs 22. */
const minimumNodeMajor = 22

let options: Options
const nodeMajor = Number(process.versions.node.split(".")[0])
if (nodeMajor < minimumNodeMajor) {
  log(
    `Node ${process.version} runs this benchmark and every process it starts, but the product needs Node ` +
      `${minimumNodeMajor} or later: run it as \`npx pnpm@10.34.9 bench\`, whose \`node\` is the npm \`node\` package's.`
  )
  process.exit(2)
}
try {
  options = parseOptions(process.argv.slice(2), process.env)
} catch (error) {
  log(error instanceof Error ? error.message : String(error))
  process.exit(2)
}
try {
  await run(options)
} catch (error) {
  log(`benchmark failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
}
