/**
 * The built worker process (`node dist/main.js`), several at once on one PostgreSQL, against a real
 * DNS server that records every query: the workers share the due domains without ever checking one
 * twice at once, a killed worker's leases are taken over only once they expired, and a stopped
 * worker gives its leases back. Fails (never skips) when the test PostgreSQL is unreachable.
 */
import { CustomDomainRepository } from "@petstore/domains"
import { checkRoundsInFlight } from "@petstore/jobs"
import { LoopbackServer } from "@petstore/testing"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { type Delay, type DnsQuery, type DnsServer, startDnsServer } from "./support/DnsServer.js"
import { cnameTarget, openTestStore, platformDomain, type TestStore, zone } from "./support/TestStore.js"
import {
  cleanUp,
  onCleanUp,
  roundTotals,
  startWorker,
  type WorkerProcess,
  waitUntil
} from "./support/WorkerProcess.js"

const testTimeout = 120_000

const freePort = () => Effect.runPromise(LoopbackServer.freePort)
const domainCount = 500

let store: TestStore

beforeAll(async () => {
  store = await openTestStore()
}, 300_000)
afterEach(cleanUp, 60_000)
afterAll(async () => {
  await store?.close()
}, 60_000)

const startDns = async (listeners: ReadonlyArray<string>, delay: Delay): Promise<DnsServer> => {
  const dns = await startDnsServer({ listeners, zone, target: cnameTarget, delay })
  onCleanUp(dns.close)
  return dns
}

/** A worker asking the DNS listener `listener`, with the knobs of the brief unless overridden. */
const startWorkerOn = (dns: DnsServer, listener: string, overrides: Record<string, string> = {}) =>
  startWorker({
    DATABASE_URL: store.url,
    PETSTORE_DNS_SERVERS: `127.0.0.1:${dns.port(listener)}`,
    PETSTORE_PLATFORM_DOMAIN: platformDomain,
    PETSTORE_CNAME_TARGET: cnameTarget,
    PETSTORE_WORKER_CONCURRENCY: "8",
    PETSTORE_WORKER_BATCH_SIZE: "25",
    // Effect's Config.duration takes "<number> <unit>" ("100 millis"); "100ms" is a config error.
    PETSTORE_WORKER_POLL_INTERVAL: "100 millis",
    PETSTORE_WORKER_LEASE: "5 seconds",
    LOG_LEVEL: "Debug",
    ...overrides
  })

/** A seeded domain's name, `<n>.example.com`. */
const seededName = new RegExp(`^[0-9]+\\.${zone.replaceAll(".", "\\.")}$`)

/** Every CNAME query for the seeded domains: their verification checks and the checks before an order. */
const cnameQueries = (dns: DnsServer): Array<DnsQuery> =>
  dns.queries().filter((query) => query.type === "CNAME" && seededName.test(query.name))

/**
 * The CNAME queries for a random name beside a seeded one (`<random>.example.com`): each verification
 * check looks for a wildcard record under the domain's parent.
 */
const wildcardProbes = (dns: DnsServer): Array<DnsQuery> =>
  dns
    .queries()
    .filter(
      (query) => query.type === "CNAME" && query.name.endsWith(`.${zone}`) && !seededName.test(query.name)
    )

/**
 * The CNAME queries of verification checks: one per check of a domain. The checks before a
 * certificate order ask for the CNAME again, together with the name's CAA records (the worker sends
 * both at once, so the two are in flight together); a verification check and the order that follows
 * it never overlap. So a CNAME query in flight at the same time as a CAA query for the same name from
 * the same worker is one of the checks before an order.
 */
const cnameChecks = (dns: DnsServer): Array<DnsQuery> => {
  const caaQueries = new Map<string, Array<DnsQuery>>()
  for (const query of dns.queries()) {
    if (query.type !== "CAA") continue
    const key = `${query.listener} ${query.name}`
    caaQueries.set(key, [...(caaQueries.get(key) ?? []), query])
  }
  const overlap = (a: DnsQuery, b: DnsQuery) =>
    a.start <= (b.end ?? Number.POSITIVE_INFINITY) && b.start <= (a.end ?? Number.POSITIVE_INFINITY)
  const beforeOrder = (query: DnsQuery) =>
    (caaQueries.get(`${query.listener} ${query.name}`) ?? []).some((caa) => overlap(caa, query))
  return cnameQueries(dns).filter((query) => !beforeOrder(query))
}

const byHostname = (queries: ReadonlyArray<DnsQuery>): Map<string, Array<DnsQuery>> => {
  const groups = new Map<string, Array<DnsQuery>>()
  for (const query of queries) {
    const group = groups.get(query.name) ?? []
    group.push(query)
    groups.set(query.name, group)
  }
  for (const group of groups.values()) group.sort((a, b) => a.start - b.start)
  return groups
}

/** For each hostname, every CNAME query was answered before the next one for it arrived. */
const overlapping = (groups: Map<string, Array<DnsQuery>>): Array<string> => {
  const found: Array<string> = []
  for (const [hostname, queries] of groups) {
    for (let i = 1; i < queries.length; i++) {
      const previous = queries[i - 1]
      const current = queries[i]
      if (previous === undefined || current === undefined) continue
      if (previous.end === undefined || previous.end > current.start) {
        found.push(`${hostname}: ${JSON.stringify(previous)} overlaps ${JSON.stringify(current)}`)
      }
    }
  }
  return found
}

/** Every domain verified and its certificate issued (by the local CA: no ACME directory is configured). */
const allVerified = (timeoutMs: number, workers: ReadonlyArray<WorkerProcess>) =>
  waitUntil(
    async () =>
      (await store.countWhere("status = 'verified' and certificate->>'status' = 'issued'")) === domainCount,
    timeoutMs,
    () =>
      `every domain verified, its certificate issued\n${workers.map((worker) => worker.output().slice(-4_000)).join("\n")}`
  )

const countBy = <A>(items: ReadonlyArray<A>, key: (item: A) => string): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1
  return counts
}

describe("worker processes sharing the due domains", () => {
  it(
    "two workers check 500 due domains between them, each exactly once, never one twice at once",
    async () => {
      await store.seedDueDomains(domainCount)
      const dns = await startDns(["a", "b"], { minMs: 20, maxMs: 50 })
      const metricsPorts = [await freePort(), await freePort()] as const
      // Leases and DNS timeouts far above a round's length, even on a machine whose cores are busy: a
      // lease that ran out mid-round, or a DNS query retried, would show as a second check of a name.
      const patient = {
        PETSTORE_WORKER_LEASE: "60 seconds",
        PETSTORE_DNS_TIMEOUT: "10 seconds",
        PETSTORE_DNS_TRIES: "1"
      }
      // The second through the variable's earlier name, which is still read.
      const a = startWorkerOn(dns, "a", { ...patient, PETSTORE_METRICS_PORT: String(metricsPorts[0]) })
      const b = startWorkerOn(dns, "b", { ...patient, PETSTORE_WORKER_METRICS_PORT: String(metricsPorts[1]) })
      await Promise.all([a.started(), b.started()])
      const began = Date.now()
      await allVerified(90_000, [a, b])
      const elapsed = Date.now() - began

      const checks = cnameChecks(dns)
      // Exactly two CNAME queries a name, one after the other: its verification check, then the check
      // before its order. Counted over all of them, so a CAA query that a busy worker sent a moment
      // late (telling the two apart by overlap fails then) cannot pass for a second check.
      const groups = byHostname(cnameQueries(dns))
      expect(groups.size).toBe(domainCount)
      const repeated = [...groups].filter(([, queries]) => queries.length !== 2).map(([name]) => name)
      expect(repeated, "hostnames checked more than once").toEqual([])
      expect(overlapping(byHostname(cnameQueries(dns)))).toEqual([])
      // Each check also asked for a random name beside it (a wildcard record), through the same
      // worker's listener; the CNAME found, neither it nor the check before the order asked for the
      // addresses (A and AAAA: they matter only without a CNAME). The order also asked for CAA.
      // Nobody else has the names: no TXT.
      const perListener = countBy(checks, (query) => query.listener)
      const probes = wildcardProbes(dns)
      expect(probes).toHaveLength(domainCount)
      expect(new Set(probes.map((query) => query.name)).size).toBe(domainCount)
      const { CAA: caaQueries, ...domainQueries } = countBy(dns.queries(), (query) => query.type)
      expect(domainQueries).toEqual({ CNAME: 3 * domainCount })
      expect(caaQueries).toBeGreaterThanOrEqual(domainCount)
      // Both did a share: at least one full batch each.
      expect(perListener.a ?? 0, JSON.stringify(perListener)).toBeGreaterThanOrEqual(25)
      expect(perListener.b ?? 0, JSON.stringify(perListener)).toBeGreaterThanOrEqual(25)
      expect(await store.countWhere("lease_holder is not null")).toBe(0)

      // Each worker's own metrics count the jobs it did: together, a check and an order per domain.
      const completedJobs = async (port: number) => {
        const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
        const line = text
          .split("\n")
          .find((candidate) => candidate.startsWith('petstore_worker_jobs_total{outcome="completed"}'))
        return Number(line?.split(" ")[1] ?? Number.NaN)
      }
      // A round is counted when it ends, a moment after its last result is stored.
      const totalJobs = async () =>
        (await completedJobs(metricsPorts[0])) + (await completedJobs(metricsPorts[1]))
      await waitUntil(
        async () => (await totalJobs()) >= 2 * domainCount,
        10_000,
        () => "the workers' job metrics"
      )
      expect(await totalJobs()).toBe(2 * domainCount)

      const [exitA, exitB] = await Promise.all([a.stop(), b.stop()])
      expect(exitA, a.output()).toEqual({ code: 0, signal: null })
      expect(exitB, b.output()).toEqual({ code: 0, signal: null })
      // The workers' own accounts (debug "domain checks" rounds): every claim completed, and each domain
      // claimed twice: its check, then its order (from the local CA, its certificate in the same job).
      const totalsA = roundTotals(a.stdout())
      const totalsB = roundTotals(b.stdout())
      expect(totalsA.completed).toBe(totalsA.claimed)
      expect(totalsB.completed).toBe(totalsB.claimed)
      expect(totalsA.abandoned + totalsB.abandoned).toBe(0)
      expect(totalsA.claimed + totalsB.claimed).toBe(2 * domainCount)
      console.info(
        `two workers: 500 domains verified in ${elapsed} ms; worker a ${perListener.a} (${totalsA.rounds} rounds), worker b ${perListener.b} (${totalsB.rounds} rounds)`
      )
    },
    testTimeout
  )

  it(
    "a worker killed mid-batch: the other takes over its leases once they expired, never before",
    async () => {
      const leaseMs = 4_000
      await store.seedDueDomains(domainCount)
      const dns = await startDns(["a", "b"], { minMs: 100, maxMs: 250 })
      const overrides = { PETSTORE_WORKER_LEASE: `${leaseMs} millis` }
      const a = startWorkerOn(dns, "a", overrides)
      const b = startWorkerOn(dns, "b", overrides)
      const [holderA] = await Promise.all([a.started(), b.started()])

      // Mid-batch: worker a is in its third round (25 a round), with checks in flight and some not begun.
      await waitUntil(
        () => {
          const ofA = cnameChecks(dns).filter((query) => query.listener === "a")
          return ofA.length >= 60 && ofA.some((query) => query.end === undefined)
        },
        60_000,
        () => `worker a mid-batch\n${a.output().slice(-4_000)}`
      )
      expect(await a.stop("SIGKILL", 10_000)).toEqual({ code: null, signal: "SIGKILL" })
      const killedAt = Date.now()
      const held = await store.run(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql<{ hostname: string; leaseUntil: Date }>`
            select hostname, lease_until as "leaseUntil" from custom_domains
            where starts_with(lease_holder, ${`${holderA}/`})`
        )
      )
      const leaseUntil = new Map(held.map((row) => [row.hostname, row.leaseUntil.getTime()]))
      expect(leaseUntil.size, "the killed worker held leases").toBeGreaterThan(0)
      expect(await store.countWhere("status = 'verified'")).toBeLessThan(domainCount)

      await allVerified(90_000, [b])
      const takenOverBy = Date.now()

      const checks = cnameChecks(dns)
      const groups = byHostname(checks)
      expect(groups.size).toBe(domainCount)
      expect(overlapping(byHostname(cnameQueries(dns)))).toEqual([])
      const problems: Array<string> = []
      for (const [hostname, queries] of groups) {
        const until = leaseUntil.get(hostname)
        if (queries.length > 2) problems.push(`${hostname} checked ${queries.length} times`)
        if (queries.length === 2) {
          const [first, second] = queries
          if (until === undefined)
            problems.push(`${hostname} checked twice, but it was not the dead worker's`)
          if (first?.listener !== "a" || second?.listener !== "b")
            problems.push(`${hostname} checked twice, not by a then b: ${JSON.stringify(queries)}`)
          // Its lease was claimed at `until - lease`, before the dead worker's check started.
          if (until !== undefined && first !== undefined && first.start < until - leaseMs)
            problems.push(`${hostname}: the dead worker's check started before its claim?`)
        }
        if (until !== undefined) {
          // Every domain the dead worker held was taken over only once its lease had expired
          // (the same clock: the worker's lease time, the server's arrival time; 5 ms of rounding).
          for (const query of queries.filter((q) => q.listener === "b")) {
            if (query.start < until - 5)
              problems.push(`${hostname} taken over ${until - query.start} ms before its lease expired`)
          }
        }
      }
      expect(problems).toEqual([])
      const twice = [...groups.values()].filter((queries) => queries.length === 2).length
      expect(checks.filter((query) => query.listener === "a" && query.start > killedAt)).toEqual([])

      expect(await store.countWhere("lease_holder is not null")).toBe(0)
      expect(await b.stop(), b.output()).toEqual({ code: 0, signal: null })
      const totalsB = roundTotals(b.stdout())
      expect(totalsB.abandoned).toBe(0)
      console.info(
        `killed worker held ${leaseUntil.size} leases (${twice} of them rechecked); all 500 verified ${takenOverBy - killedAt} ms after the kill`
      )
    },
    testTimeout
  )

  it(
    "SIGTERM: the worker exits 0 and gives its leases back at once",
    async () => {
      await store.seedDueDomains(domainCount)
      const dns = await startDns(["a"], { minMs: 2_000, maxMs: 2_000 })
      const worker = startWorkerOn(dns, "a", {
        PETSTORE_WORKER_LEASE: "60 seconds",
        PETSTORE_DNS_TIMEOUT: "10 seconds",
        PETSTORE_DNS_TRIES: "1"
      })
      const holder = await worker.started()
      // A full wave of checks in flight: the worker holds a batch of leases.
      await waitUntil(
        () => cnameChecks(dns).filter((query) => query.end === undefined).length >= 8,
        30_000,
        () => `checks in flight\n${worker.output()}`
      )
      const held = await store.run(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql<{ hostname: string }>`
            select hostname from custom_domains where starts_with(lease_holder, ${`${holder}/`})
            order by hostname`
        )
      )
      // A batch for each round in flight, each under the process's holder, numbered.
      expect(held.length).toBe(25 * checkRoundsInFlight)

      const stoppedAt = Date.now()
      expect(await worker.stop("SIGTERM", 20_000), worker.output()).toEqual({ code: 0, signal: null })
      expect(worker.stdout()).toContain("stopping; its leases are given back")
      expect(await store.countWhere("lease_holder is not null")).toBe(0)
      // Another holder can claim them at once, not 60 seconds later.
      const now = Date.now()
      const claimed = await store.run(
        Effect.flatMap(CustomDomainRepository, (domains) =>
          domains.claimDue(new Date(now), domainCount, {
            holder: "test-claimer",
            until: new Date(now + 60_000)
          })
        )
      )
      const claimedNames = new Set(claimed.map((domain) => domain.hostname))
      expect(held.filter((row) => !claimedNames.has(row.hostname as never))).toEqual([])
      const afterStop = Date.now() - stoppedAt
      expect(afterStop).toBeLessThan(20_000)
      console.info(
        `stopped with ${held.length} leases held; all claimable again ${afterStop} ms after SIGTERM`
      )
    },
    testTimeout
  )
})
