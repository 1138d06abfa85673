/**
 * The built worker rechecks proved claims (contract section 4) beside its domain checks, on
 * PostgreSQL and a real DNS server: a claim whose TXT record has disappeared lapses to pending after
 * the worker's round, while one whose record is still there stays proved until its next daily
 * recheck; each record is looked up once, and no lease is left behind. Fails (never skips) when the
 * test PostgreSQL is unreachable.
 */

import { Hostname } from "@petstore/domains"
import { AccountName, defaultLimits } from "@petstore/kernel"
import {
  applyClaimCheck,
  type Claim,
  ClaimRepository,
  claimRecheckInterval,
  newClaim,
  OwnershipRepository
} from "@petstore/ownership"
import { PgClaimRepository, PgOwnershipRepository, PgStore } from "@petstore/store-pg"
import { Duration, Effect, Layer, ManagedRuntime, Option } from "effect"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { startDnsServer } from "./support/DnsServer.js"
import { cnameTarget, openTestStore, platformDomain, type TestStore, zone } from "./support/TestStore.js"
import { cleanUp, onCleanUp, roundTotals, startWorker, waitUntil } from "./support/WorkerProcess.js"

const testTimeout = 60_000

const account = AccountName.make("claims-test")
const keptApex = Hostname.make("kept-claim.test")
const goneApex = Hostname.make("gone-claim.test")

/** The claims and tokens of the test database, through the PostgreSQL repositories the worker uses. */
const claimStorage = (url: string) =>
  ManagedRuntime.make(
    Layer.mergeAll(PgClaimRepository.layer, PgOwnershipRepository.layer).pipe(
      Layer.provide(PgStore.clientLayer({ url, maxConnections: 2 }))
    )
  )

let store: TestStore
let claims: ReturnType<typeof claimStorage>

beforeAll(async () => {
  store = await openTestStore()
  claims = claimStorage(store.url)
}, 300_000)
afterEach(cleanUp, 60_000)
afterAll(async () => {
  await claims?.dispose()
  await store?.close()
}, 60_000)

/** A claim of `apex` by the test's account, proved at `provedAt` (as Verify would have), and stored. */
const storeProvedClaim = (apex: Hostname, provedAt: Date) =>
  claims.runPromise(
    Effect.gen(function* () {
      const token = yield* Effect.flatMap(OwnershipRepository, (ownership) =>
        ownership.tokenFor(account, apex)
      )
      const claim = applyClaimCheck(newClaim(account, apex, token, provedAt), { _tag: "Found" }, provedAt)
      const inserted = yield* Effect.flatMap(ClaimRepository, (repository) =>
        repository.insert(claim, defaultLimits)
      )
      return { claim, inserted }
    })
  )

const findClaim = (apex: Hostname) =>
  claims.runPromise(Effect.flatMap(ClaimRepository, (repository) => repository.findOwned(account, apex)))

const stored = async (apex: Hostname): Promise<Claim> =>
  Option.getOrThrowWith(await findClaim(apex), () => new Error(`the claim of ${apex} is stored`))

describe("the worker's claim rechecks", () => {
  it(
    "a proved claim whose TXT record disappeared lapses; one whose record is there stays proved",
    async () => {
      // Proved a day and an hour ago: both daily rechecks are due.
      const provedAt = new Date(Date.now() - Duration.toMillis(claimRecheckInterval) - 3_600_000)
      const kept = await storeProvedClaim(keptApex, provedAt)
      const gone = await storeProvedClaim(goneApex, provedAt)
      expect([kept.inserted, gone.inserted]).toEqual([true, true])
      expect([kept.claim.status, gone.claim.status]).toEqual(["verified", "verified"])

      // Only the kept claim's record is in DNS; the other name is NXDOMAIN.
      const dns = await startDnsServer({
        listeners: ["a"],
        zone,
        target: cnameTarget,
        delay: { minMs: 0, maxMs: 5 },
        txt: new Map([[kept.claim.txt.name, [kept.claim.txt.value]]])
      })
      onCleanUp(dns.close)
      const startedAt = Date.now()
      const worker = startWorker({
        DATABASE_URL: store.url,
        PETSTORE_DNS_SERVERS: `127.0.0.1:${dns.port("a")}`,
        PETSTORE_PLATFORM_DOMAIN: platformDomain,
        PETSTORE_CNAME_TARGET: cnameTarget,
        PETSTORE_WORKER_POLL_INTERVAL: "100 millis",
        LOG_LEVEL: "Debug"
      })
      await worker.started()
      const rechecked = async (apex: Hostname) =>
        Option.exists(
          await findClaim(apex),
          (claim) => claim.lastCheckedAt !== null && claim.lastCheckedAt.getTime() >= startedAt
        )
      await waitUntil(
        async () => (await rechecked(goneApex)) && (await rechecked(keptApex)),
        30_000,
        () => `both claims rechecked\n${worker.output().slice(-4_000)}`
      )

      const lapsed = await stored(goneApex)
      expect(lapsed).toMatchObject({ status: "pending", verifiedAt: null, nextCheckAt: null })
      const held = await stored(keptApex)
      expect(held.status).toBe("verified")
      expect(held.verifiedAt).toEqual(provedAt)
      expect((held.nextCheckAt?.getTime() ?? 0) - (held.lastCheckedAt?.getTime() ?? 0)).toBe(
        Duration.toMillis(claimRecheckInterval)
      )

      // A while later nothing is due any more: each record was looked up once, by this worker.
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(await worker.stop(), worker.output()).toEqual({ code: 0, signal: null })
      const txtQueries = dns
        .queries()
        .filter((query) => query.type === "TXT")
        .map((query) => query.name)
        .sort()
      expect(txtQueries).toEqual([gone.claim.txt.name, kept.claim.txt.name].sort())
      const totals = roundTotals(worker.stdout(), "claim rechecks")
      expect(totals).toMatchObject({ claimed: 2, completed: 2 })
      const leased = await store.query<{ count: string }>(
        "select count(*)::text as count from claims where lease_holder is not null"
      )
      expect(leased).toEqual([{ count: "0" }])
    },
    testTimeout
  )
})
