/**
 * The load generator's process: the runner starts it pinned to its own core (`taskset -c 1`), so that
 * it never competes with the server it measures. It reads one job (a JSON file named on the command
 * line), runs autocannon without pipelining, and prints one JSON line with the figures.
 */
import { readFileSync } from "node:fs"
import autocannon from "autocannon"
import type { LoadJob, LoadResult } from "./LoadJob.js"
import { requestsFor } from "./Scenarios.js"

const jobFile = process.argv[2]
if (jobFile === undefined) {
  process.stderr.write("usage: loadWorker.js <job.json>\n")
  process.exit(2)
}
const job = JSON.parse(readFileSync(jobFile, "utf8")) as LoadJob

const cpuBefore = process.cpuUsage()
const startedAt = performance.now()
const result = await autocannon({
  url: job.url,
  connections: job.connections,
  pipelining: 1,
  duration: job.durationSeconds,
  timeout: 10,
  requests: requestsFor(job.scenario, job.context)
})
const elapsedMs = performance.now() - startedAt
const cpu = process.cpuUsage(cpuBefore)

const statusCounts: Record<string, number> = {}
for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) {
  statusCounts[status] = stats.count ?? 0
}

const output: LoadResult = {
  requests: result.requests.total,
  rps: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  errors: result.errors,
  timeouts: result.timeouts,
  statusCounts,
  loadCpu: (cpu.user + cpu.system) / 1000 / elapsedMs
}
process.stdout.write(`${JSON.stringify(output)}\n`)
