/**
 * The benchmark runner's smoke runs (`--smoke`, and `--smoke --workers`), so that they cannot rot
 * unnoticed: they must start the servers (or workers), load them, and write the result files with
 * every key the README and trackers read, the targets among them. Their numbers are not judged. An
 * unreachable PostgreSQL fails them.
 */
import { execFile } from "node:child_process"
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { benchDirectory, cleanUp, temporaryDirectory } from "./support/TestServers.js"

afterAll(cleanUp)

const runSmoke = (outDirectory: string, ...flags: ReadonlyArray<string>) =>
  new Promise<{ readonly code: number | null; readonly output: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      [join(benchDirectory, "dist/main.js"), "--smoke", "--out", outDirectory, ...flags],
      { cwd: benchDirectory, timeout: 170_000, killSignal: "SIGKILL", maxBuffer: 16 * 1024 * 1024 },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, output: `${stdout}\n${stderr}` })
    )
  })

describe("pnpm bench --smoke", () => {
  it("runs every server and writes latest.md and latest.json with the published keys", async () => {
    const outDirectory = await temporaryDirectory("petstore-bench-smoke-")
    const run = await runSmoke(outDirectory)
    expect(run.code, run.output).toBe(0)

    const report = JSON.parse(await readFile(join(outDirectory, "latest.json"), "utf8")) as Record<
      string,
      unknown
    >
    expect(report).toMatchObject({
      settings: { smoke: true, rounds: 1, pipelining: 1 },
      reference: "fastify-pino",
      noLogReference: "fastify",
      machine: { cpu: expect.any(String), node: process.version, cores: expect.any(Number) }
    })
    const servers = ["product", "fastify-pino", "fastify", "raw"]
    expect(Object.keys(report.servers as Record<string, string>)).toEqual(servers)
    const scenarios = report.scenarios as Record<
      string,
      Record<string, Record<string, Record<string, unknown>>>
    >
    expect(Object.keys(scenarios).sort()).toEqual(["create", "list-next"])
    for (const scenario of Object.values(scenarios)) {
      for (const server of servers) {
        expect(Object.keys(scenario.absolute?.[server] ?? {}).sort()).toEqual(["p50", "p99", "rps", "rss"])
        expect(Object.keys(scenario.ratios?.[server] ?? {}).sort()).toEqual(["p99", "rps", "rss"])
        expect(Object.keys(scenario.noLogRatios?.[server] ?? {}).sort()).toEqual(["p99", "rps", "rss"])
      }
      expect(scenario.ratios?.["fastify-pino"]).toEqual({ rps: 1, p99: 1, rss: 1 })
      expect(scenario.noLogRatios?.fastify).toEqual({ rps: 1, p99: 1, rss: 1 })
    }
    const coldStart = report.coldStart as Record<string, Record<string, unknown>>
    for (const server of servers) {
      expect(coldStart.absolute?.[server]).toEqual(expect.any(Number))
      expect(coldStart.ratios?.[server]).toEqual(expect.any(Number))
      expect(coldStart.noLogRatios?.[server]).toEqual(expect.any(Number))
    }
    expect(coldStart.ratios?.["fastify-pino"]).toBe(1)

    // The measured scenarios' targets (req/s, p99, RSS each) and the cold start's, each judged.
    const targets = report.targets as ReadonlyArray<Record<string, unknown>>
    expect(targets.map((target) => `${target.measure} ${target.scenario ?? ""}`)).toEqual([
      "rps list-next",
      "rps create",
      "p99 list-next",
      "p99 create",
      "rss list-next",
      "rss create",
      "coldStart "
    ])
    expect(targets.map((target) => [target.bound, target.limit])).toEqual([
      ["atLeast", 0.8],
      ["atLeast", 0.8],
      ["atMost", 1.5],
      ["atMost", 1.5],
      ["atMost", 1.3],
      ["atMost", 1.3],
      ["atMost", 1.5]
    ])
    for (const target of targets) {
      expect(target.ratio).toEqual(expect.any(Number))
      expect(target.ratioToNoLog).toEqual(expect.any(Number))
      const ratio = Number(target.ratio)
      expect(target.met).toBe(
        target.bound === "atLeast" ? ratio >= Number(target.limit) : ratio <= Number(target.limit)
      )
    }

    const markdown = await readFile(join(outDirectory, "latest.md"), "utf8")
    expect(markdown).toContain("| Scenario | Server | req/s | p50 ms | p99 ms | RSS MiB |")
    expect(markdown).toContain("Smoke run")
    expect(markdown).toContain("| Fastify 5 + pg + pino log |")
    expect(markdown).toContain("| Fastify 5 + pg, no log |")
    expect(markdown).toMatch(/Targets of the product: \d of 7 met/)
  }, 180_000)

  it("--workers: 1 and 2 worker processes verify the due domains, written to workers.json", async () => {
    const outDirectory = await temporaryDirectory("petstore-bench-workers-smoke-")
    const run = await runSmoke(outDirectory, "--workers")
    expect(run.code, run.output).toBe(0)
    const report = JSON.parse(await readFile(join(outDirectory, "workers.json"), "utf8")) as {
      readonly domains: number
      readonly runs: ReadonlyArray<Record<string, unknown>>
      readonly scaling: unknown
      readonly targets: ReadonlyArray<Record<string, unknown>>
    }
    expect(report.domains).toBe(200)
    expect(report.runs.map((r) => r.workers)).toEqual([1, 2])
    for (const r of report.runs) expect(r.verifiedPerSecond).toEqual(expect.any(Number))
    expect(report.scaling).toEqual(expect.any(Number))
    expect(report.targets.map((target) => [target.unit, target.limit])).toEqual([
      ["domains/s", 1000],
      ["×", 1.7]
    ])
    expect(report.targets.map((target) => target.measured)).toEqual([
      report.runs[0]?.verifiedPerSecond,
      report.scaling
    ])
    for (const target of report.targets)
      expect(target.met).toBe(Number(target.measured) >= Number(target.limit))
    const markdown = await readFile(join(outDirectory, "workers.md"), "utf8")
    expect(markdown).toContain("| 1 worker ≥ 1,000 domains/s |")
  }, 180_000)
})
