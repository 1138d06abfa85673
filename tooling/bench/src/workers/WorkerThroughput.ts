/**
 * `pnpm bench --workers`: how many due domains the built worker (`apps/worker/dist/main.js`) verifies
 * per second, with 1 and with 2 worker processes sharing one PostgreSQL (each pinned to its own core),
 * against a loopback DNS server that verifies every domain at once. Each run starts from the same
 * 10,000 due domains; the rate is taken from the first verified domain's check to the last one's (the
 * check times the worker stored), so process start-up is not counted (it is reported apart), and a
 * run shorter than the wait between two looks at the table is still measured.
 */
import { spawn } from "node:child_process"
import { join } from "node:path"
import pg from "pg"
import type { BenchDatabase } from "../BenchDatabase.js"
import { track } from "../Children.js"
import { pinned } from "../Pinning.js"
import { repositoryRoot } from "../Servers.js"
import { startLoopbackDns } from "./LoopbackDns.js"

const zone = "bench.example.com"
/** The zone's registrable domain, which the store keeps with every domain (the names a claim covers). */
const zoneApex = "example.com"
const platformDomain = "docs.petstore.test"
const cnameTarget = "cname.docs.petstore.test"
const workerScript = join(repositoryRoot, "apps/worker/dist/main.js")

export interface WorkerRun {
  readonly workers: number
  readonly domains: number
  /** From spawning the workers to the first verified domain. */
  readonly startSeconds: number
  /** From the first verified domain to the last. */
  readonly verifySeconds: number
  readonly verifiedPerSecond: number
}

const withClient = async <A>(url: string, work: (client: pg.Client) => Promise<A>): Promise<A> => {
  const client = new pg.Client({ connectionString: url })
  client.on("error", () => undefined)
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end().catch(() => undefined)
  }
}

/** A paid, deployed project and `count` pending domains of it, all due a minute ago (in the product's row format). */
const seedDueDomains = (database: BenchDatabase, count: number) =>
  withClient(database.url, async (client) => {
    await client.query("delete from custom_domains")
    await client.query("delete from projects")
    await client.query(
      `insert into projects (id, account, plan, last_deploy_status, last_deploy_at, last_succeeded_deploy_at, created_at)
       values ('bench', 'bench', 'pro', 'succeeded', now() - interval '1 hour', now() - interval '1 hour',
               now() - interval '1 hour')`
    )
    await client.query(
      `insert into custom_domains (hostname, project_id, account, kind, status, dns_record, ownership,
         verification_last_checked_at, verification_next_check_at, verification_deadline, verification_problems,
         certificate, created_at, apex)
       select g || '.${zone}', 'bench', 'bench', 'subdomain', 'pending',
              jsonb_build_object('type', 'CNAME', 'name', g || '.${zone}', 'value', $2::text, 'ttl', 3600),
              -- Benchmark data: the token needs the shape, not secrecy.
              jsonb_build_object('type', 'TXT', 'name', '_petstore-challenge.' || g || '.${zone}',
                'value', 'petstore-verification=' || md5(g::text), 'required', false),
              null, now() - interval '1 minute', now() + interval '47 hours', '[]'::jsonb,
              '{"status": "none", "issuedAt": null, "expiresAt": null, "problems": []}'::jsonb,
              now() - interval '1 minute' + g * interval '1 millisecond', '${zoneApex}'
       from generate_series(0, $1::int - 1) as g
       order by g`,
      [count, cnameTarget]
    )
    await client.query("vacuum analyze custom_domains")
  })

/** When the first and the last verified domain were checked (epoch milliseconds), and how many there are. */
const verifiedSpan = (
  client: pg.Client
): Promise<{ readonly count: number; readonly first: number; readonly last: number }> =>
  client
    .query<{ readonly count: string; readonly first: Date | null; readonly last: Date | null }>(
      `select count(*)::text as count, min(verification_last_checked_at) as first,
              max(verification_last_checked_at) as last
       from custom_domains where status = 'verified'`
    )
    .then((result) => {
      const row = result.rows[0]
      return {
        count: Number(row?.count ?? "0"),
        first: row?.first?.getTime() ?? Number.NaN,
        last: row?.last?.getTime() ?? Number.NaN
      }
    })

const countVerified = (client: pg.Client): Promise<number> =>
  client
    .query<{ readonly count: string }>(
      "select count(*)::text as count from custom_domains where status = 'verified'"
    )
    .then((result) => Number(result.rows[0]?.count ?? "0"))

const measure = async (
  database: BenchDatabase,
  domains: number,
  workers: number,
  dnsPort: number,
  dataDirectory: string,
  log: (line: string) => void
): Promise<WorkerRun> => {
  await seedDueDomains(database, domains)
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env))
    if (!name.startsWith("PETSTORE_") && name !== "DATABASE_URL" && name !== "LOG_LEVEL") env[name] = value
  Object.assign(env, {
    NODE_ENV: "production",
    DATABASE_URL: database.url,
    LOG_LEVEL: "Warn",
    PETSTORE_DATA_DIR: dataDirectory,
    PETSTORE_SECRET_KEY: "bench",
    PETSTORE_DNS_SERVERS: `127.0.0.1:${dnsPort}`,
    PETSTORE_PLATFORM_DOMAIN: platformDomain,
    PETSTORE_CNAME_TARGET: cnameTarget,
    // Effect durations are "<number> <unit>".
    PETSTORE_WORKER_POLL_INTERVAL: "100 millis"
  })
  return withClient(database.url, async (client) => {
    let output = ""
    const spawnedAt = performance.now()
    // The workers stamp their checks with the wall clock: the start is measured on it too.
    const spawnedAtWall = Date.now()
    const children = Array.from({ length: workers }, (_, i) => {
      const [command, args] = pinned(i % 2, process.execPath, [workerScript])
      const child = track(
        spawn(command, args, { cwd: repositoryRoot, env, stdio: ["ignore", "pipe", "pipe"] })
      )
      const collect = (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-20_000)
      }
      child.stdout?.on("data", collect)
      child.stderr?.on("data", collect)
      return child
    })
    try {
      let verified = 0
      while (verified < domains) {
        if (children.some((child) => child.exitCode !== null))
          throw new Error(`a worker exited during the run:\n${output}`)
        if (performance.now() - spawnedAt > 600_000)
          throw new Error(`${domains - verified} domains were still unverified after 10 minutes:\n${output}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
        verified = await countVerified(client)
      }
      // From the first check that verified a domain to the last: the domains after the first, over that span.
      const span = await verifiedSpan(client)
      const verifySeconds = (span.last - span.first) / 1000
      const run: WorkerRun = {
        workers,
        domains,
        startSeconds: (span.first - spawnedAtWall) / 1000,
        verifySeconds,
        verifiedPerSecond: verifySeconds > 0 ? (span.count - 1) / verifySeconds : Number.NaN
      }
      log(
        `${workers} worker(s): ${domains} domains verified in ${verifySeconds.toFixed(1)} s after a ` +
          `${run.startSeconds.toFixed(1)} s start: ${run.verifiedPerSecond.toFixed(0)} domains/s`
      )
      return run
    } finally {
      for (const child of children) child.kill("SIGKILL")
    }
  })
}

/** Runs 1 then 2 workers over `domains` fresh due domains each time. */
export const measureWorkerThroughput = async (
  database: BenchDatabase,
  domains: number,
  dataDirectory: string,
  log: (line: string) => void
): Promise<ReadonlyArray<WorkerRun>> => {
  const dns = await startLoopbackDns(zone, cnameTarget)
  try {
    const runs: Array<WorkerRun> = []
    for (const workers of [1, 2])
      runs.push(await measure(database, domains, workers, dns.port, dataDirectory, log))
    return runs
  } finally {
    await dns.close()
  }
}
