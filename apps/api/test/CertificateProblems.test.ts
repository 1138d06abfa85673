/**
 * Certificate diagnosis as soon as it is known (contract section 6), through the BUILT processes: the
 * API on its embedded default (its own worker loop and edge) ordering from a real Pebble, and the
 * worker process beside an API on PostgreSQL, both asking a real DNS server (pebble-challtestsrv,
 * whose CAA records the tests set between steps). What stands in a certificate's way shows while it is
 * still `pending`, in the worker round that found it; Re-verify retries at once once the owner fixed
 * it; `delayed` comes after `PETSTORE_CERTIFICATE_DELAY_AFTER`, which both processes honour and refuse
 * when it is no duration they can use.
 */
import { existsSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, layer, it as plainIt } from "@effect/vitest"
import { TestPebble, testPebbleLayerWith } from "@petstore/acme/testing"
import { Challtestsrv, challtestsrvLayer } from "@petstore/dns/testing"
import { NodeProcess } from "@petstore/testing"
import { Context, Duration, Effect, Layer, Schedule } from "effect"
import {
  cleanUp,
  freePort,
  freshDatabase,
  randomKey,
  type ServerProcess,
  send as sendTo,
  startServer,
  temporaryDirectory
} from "./support/ApiProcess.js"
import { builtApiLayer, processPlatform } from "./support/BuiltApiServer.js"
import {
  addDomain,
  certificateProblemCodes,
  type DomainBody,
  domainOnce,
  expectError,
  expectOk,
  readyProject,
  reverify,
  verify
} from "./support/DomainFlow.js"

afterAll(cleanUp)

const delayVariable = "PETSTORE_CERTIFICATE_DELAY_AFTER"

/** The configured CA's CAA identifier (the processes' default) is not the one these records allow. */
const forbiddingCaa = [{ tag: "issue", value: "other-ca.example" }]

const certificateIs = (status: string) => (domain: DomainBody) => domain.certificate.status === status
const hasProblems = (domain: DomainBody) => domain.certificate.problems.length > 0

/** DNS as an owner who followed the instructions has it; the target resolves to the edge (loopback). */
const pointAtPlatform = (hostname: string) =>
  Effect.gen(function* () {
    const dns = yield* Challtestsrv
    yield* dns.setCname(hostname, processPlatform.cnameTarget)
    // Pebble resolves the name through the CNAME to the target, where the edge listens (loopback).
    yield* dns.addA(processPlatform.cnameTarget, ["127.0.0.1"])
  })

/** The caa_blocks_issuer problem a CAA record allowing only other-ca.example makes at `apex`. */
const expectCaaBlocks = (domain: DomainBody, apex: string) => {
  expect(certificateProblemCodes(domain)).toEqual(["caa_blocks_issuer"])
  expect(domain.certificate.problems[0]?.found).toEqual(['0 issue "other-ca.example"'])
  expect(domain.certificate.problems[0]?.message).toContain(apex)
  expect(domain.certificate.problems[0]?.message).toContain("letsencrypt.org")
}

/** A certificate asked for afresh: pending, nothing found yet. */
const expectPendingWithNothingShown = (domain: DomainBody) => {
  expect(domain.certificate.status).toBe("pending")
  expect(domain.certificate.problems).toEqual([])
}

/** Milliseconds since `start` (real time: the processes run on the real clock). */
const since = (start: number) => Date.now() - start

// The worker loops poll every 100 ms and a round's checks are a few local DNS lookups: a round is
// well within this. Any retry of a blocked order comes 30 s or more after the previous attempt.
const oneRound = "5 seconds"

class EdgeHttpPort extends Context.Service<EdgeHttpPort, number>()("test/EdgeHttpPort") {}

/** Pebble validating HTTP-01 on a port chosen here, where the process under test will run its edge. */
const pebbleOnEdgePort = Layer.unwrap(
  Effect.map(Effect.promise(freePort), (port) =>
    Layer.merge(Layer.succeed(EdgeHttpPort, port), testPebbleLayerWith({ httpPort: port }))
  )
)

/** The built API ordering from that Pebble (trusted through NODE_EXTRA_CA_CERTS), its edge on the port. */
const apiOnPebble = Layer.unwrap(
  Effect.gen(function* () {
    const pebble = yield* TestPebble
    const dns = yield* Challtestsrv
    const edgeHttpPort = yield* EdgeHttpPort
    const caFile = join(yield* Effect.promise(temporaryDirectory), "pebble-https-ca.pem")
    writeFileSync(caFile, pebble.caPem)
    return builtApiLayer(dns.server, {
      PETSTORE_ACME_DIRECTORY_URL: pebble.directoryUrl,
      PETSTORE_ACME_EMAIL: "ops@petstore-docs.test",
      PETSTORE_EDGE_HTTP_PORT: String(edgeHttpPort),
      NODE_EXTRA_CA_CERTS: caFile
    })
  })
).pipe(Layer.provideMerge(pebbleOnEdgePort))

/** The built API on its local CA with a certificate delay of `delay`. */
const apiWithDelay = (delay: string) =>
  Layer.unwrap(Effect.map(Challtestsrv, (dns) => builtApiLayer(dns.server, { [delayVariable]: delay })))

// One pebble-challtestsrv for the whole file (a second start in one process usually fails).
layer(challtestsrvLayer, { timeout: 30_000, excludeTestServices: true })("certificate problems", (it) => {
  it.layer(apiOnPebble, { timeout: 120_000 })("the built API ordering from Pebble", (it) => {
    it.effect(
      "CAA forbidding the CA: caa_blocks_issuer while pending, within one worker round; removed + Re-verify: issued at once",
      () =>
        Effect.gen(function* () {
          const dns = yield* Challtestsrv
          yield* readyProject("caa")
          yield* pointAtPlatform("docs.caa-blocked.com")
          yield* dns.addCaa("caa-blocked.com", forbiddingCaa)
          expectOk(yield* addDomain("caa", "docs.caa-blocked.com"), 201)
          const verified = expectOk<DomainBody>(yield* verify("caa", "docs.caa-blocked.com"))
          expect(verified.status).toBe("verified")
          expectPendingWithNothingShown(verified)

          // Shown by the round that ran the checks, not 30 minutes later; still pending.
          const blocked = yield* domainOnce("caa", "docs.caa-blocked.com", hasProblems, oneRound)
          expect(blocked.certificate.status).toBe("pending")
          expectCaaBlocks(blocked, "caa-blocked.com")
          // Rounds go on (the worker retries with backoff): the problem stays as it is, pending.
          yield* Effect.sleep("1 second")
          const later = yield* domainOnce("caa", "docs.caa-blocked.com", () => true)
          expect(later.certificate).toEqual(blocked.certificate)

          // Accepted while the record is still there: the checks run again at once and find it again.
          const retried = expectOk<DomainBody>(yield* reverify("caa", "docs.caa-blocked.com"))
          expectPendingWithNothingShown(retried)
          const again = yield* domainOnce("caa", "docs.caa-blocked.com", hasProblems, oneRound)
          expect(again.certificate.status).toBe("pending")
          expectCaaBlocks(again, "caa-blocked.com")

          // The owner removes the record and clicks Re-verify: issued without waiting for a backoff.
          yield* dns.clearCaa("caa-blocked.com")
          const clicked = Date.now()
          const restarted = expectOk<DomainBody>(yield* reverify("caa", "docs.caa-blocked.com"))
          expect(restarted.status).toBe("verified")
          expectPendingWithNothingShown(restarted)
          const issued = yield* domainOnce(
            "caa",
            "docs.caa-blocked.com",
            certificateIs("issued"),
            "25 seconds"
          )
          expect(issued.certificate.problems).toEqual([])
          expect(since(clicked)).toBeLessThan(Duration.toMillis(Duration.seconds(30)))

          expectError(yield* reverify("caa", "docs.caa-blocked.com"), 409, "conflict", /certificate issued/)
        }),
      120_000
    )
  })

  it.layer(apiWithDelay("6 seconds"), { timeout: 120_000 })(
    `the built API with ${delayVariable}=6 seconds`,
    (it) => {
      it.effect("shows the problem at once, becomes delayed 6 seconds after the request, not before", () =>
        Effect.gen(function* () {
          const dns = yield* Challtestsrv
          yield* readyProject("late")
          yield* pointAtPlatform("docs.late-caa.com")
          yield* dns.addCaa("late-caa.com", forbiddingCaa)
          expectOk(yield* addDomain("late", "docs.late-caa.com"), 201)
          const requested = Date.now()
          expect(expectOk<DomainBody>(yield* verify("late", "docs.late-caa.com")).status).toBe("verified")

          const blocked = yield* domainOnce("late", "docs.late-caa.com", hasProblems, oneRound)
          expect(blocked.certificate.status).toBe("pending")
          expect(since(requested)).toBeLessThan(6_000)
          expectCaaBlocks(blocked, "late-caa.com")

          const delayed = yield* domainOnce(
            "late",
            "docs.late-caa.com",
            certificateIs("delayed"),
            "20 seconds"
          )
          expect(since(requested)).toBeGreaterThanOrEqual(6_000)
          expectCaaBlocks(delayed, "late-caa.com")

          // Delayed: Re-verify is accepted, and the retry finds the record still there at once.
          const retried = expectOk<DomainBody>(yield* reverify("late", "docs.late-caa.com"))
          expectPendingWithNothingShown(retried)
          const again = yield* domainOnce("late", "docs.late-caa.com", hasProblems, oneRound)
          expect(again.certificate.status).toBe("pending")
          expectCaaBlocks(again, "late-caa.com")
        })
      )
    }
  )

  describe("the worker process beside an API on PostgreSQL", () => {
    const workerDirectory = resolve(dirname(fileURLToPath(import.meta.url)), "../../worker")
    const workers = NodeProcess.makeCleanups()
    afterAll(workers.releaseAll)

    const startWorker = (env: Record<string, string>) =>
      Effect.promise(async () => {
        const dataDir = join(await temporaryDirectory(), "worker-data")
        const worker = NodeProcess.spawnNode(join(workerDirectory, "dist/main.js"), {
          cwd: workerDirectory,
          env: { PETSTORE_DATA_DIR: dataDir, ...env }
        })
        workers.register(worker.kill)
        return worker
      })

    it.effect(
      `honours ${delayVariable}: the domain's certificate is delayed after it, its problem shown before`,
      () =>
        Effect.gen(function* () {
          const dns = yield* Challtestsrv
          const database = yield* Effect.promise(freshDatabase)
          const key = randomKey()
          const shared = {
            DATABASE_URL: database.url,
            PETSTORE_DNS_SERVERS: dns.server,
            PETSTORE_PLATFORM_DOMAIN: processPlatform.platformDomain,
            PETSTORE_CNAME_TARGET: processPlatform.cnameTarget
          }
          // On PostgreSQL the API runs no loop of its own: only the worker moves certificates.
          const server: ServerProcess = yield* Effect.promise(async () => {
            const started = await startServer({
              ...shared,
              PETSTORE_DATA_DIR: join(await temporaryDirectory(), "api-data"),
              PETSTORE_BOOTSTRAP_KEY: key
            })
            await started.listening(60_000)
            return started
          })
          const worker = yield* startWorker({
            ...shared,
            PETSTORE_WORKER_POLL_INTERVAL: "100 millis",
            [delayVariable]: "5 seconds"
          })
          const call = (method: string, path: string, body?: object) =>
            Effect.promise(() =>
              sendTo(server.baseUrl, path, { method, key, ...(body === undefined ? {} : { body }) })
            )
          const certificateOf = Effect.map(
            call("GET", "/v1/projects/ops/domains/docs.worker-caa.com"),
            (answer) => (answer.json() as DomainBody).certificate
          )
          /** The certificate once `done` holds for it, polled every 100 ms for at most `within`. */
          const certificateOnce = (
            done: (certificate: DomainBody["certificate"]) => boolean,
            within: Duration.Input
          ) =>
            certificateOf.pipe(
              Effect.filterOrFail(done, () => "not yet" as const),
              Effect.retry(Schedule.spaced("100 millis")),
              Effect.timeoutOrElse({
                duration: within,
                orElse: () =>
                  Effect.fail(
                    new Error(
                      `not within ${Duration.format(Duration.fromInputUnsafe(within))}\n${worker.output().slice(-3_000)}`
                    )
                  )
              })
            )

          yield* pointAtPlatform("docs.worker-caa.com")
          yield* dns.addCaa("worker-caa.com", forbiddingCaa)
          expect((yield* call("POST", "/v1/projects", { id: "ops", plan: "pro" })).status).toBe(201)
          expect((yield* call("POST", "/v1/projects/ops/deploys", { status: "succeeded" })).status).toBe(201)
          expect(
            (yield* call("POST", "/v1/projects/ops/domains", { hostname: "docs.worker-caa.com" })).status
          ).toBe(201)
          const requested = Date.now()
          const verified = yield* call("POST", "/v1/projects/ops/domains/docs.worker-caa.com/verify")
          expect((verified.json() as DomainBody).status).toBe("verified")

          const blocked = yield* certificateOnce(
            (certificate) => certificate.problems.length > 0,
            "15 seconds"
          )
          expect(blocked.status).toBe("pending")
          expect(blocked.problems.map((problem) => problem.code)).toEqual(["caa_blocks_issuer"])
          const delayed = yield* certificateOnce(
            (certificate) => certificate.status === "delayed",
            "20 seconds"
          )
          expect(since(requested)).toBeGreaterThanOrEqual(5_000)
          expect(delayed.problems.map((problem) => problem.code)).toEqual(["caa_blocks_issuer"])

          worker.child.kill("SIGTERM")
          expect(yield* Effect.promise(() => worker.exited)).toEqual({ code: 0, signal: null })
          expect(yield* Effect.promise(() => server.terminate())).toEqual({ code: 0, signal: null })
        }),
      120_000
    )

    it.effect.each(["soon", "0 seconds", "2 days"])(
      `${delayVariable}=%s stops the worker at start, naming the variable, before it connects`,
      (value) =>
        Effect.gen(function* () {
          const worker = yield* startWorker({
            DATABASE_URL: "postgres://petstore@127.0.0.1:1/petstore",
            [delayVariable]: value
          })
          const exit = yield* Effect.promise(() => worker.exited)
          expect(exit.code, worker.output()).toBe(1)
          expect(worker.stdout()).toContain(delayVariable)
          expect(worker.stdout()).not.toContain("checking domains")
          expect(worker.stdout()).not.toContain("127.0.0.1:1")
        }),
      60_000
    )
  })
})

describe("a bad certificate delay", () => {
  for (const [value, reason] of [
    ["soon", undefined],
    ["0 seconds", "must be from 1 second to 1 day"],
    ["2 days", "must be from 1 second to 1 day"]
  ] as const) {
    plainIt(
      `${delayVariable}=${value} stops the API at once, naming the variable, before touching storage`,
      async () => {
        const dataDir = join(await temporaryDirectory(), "data")
        const server = await startServer({ PETSTORE_DATA_DIR: dataDir, [delayVariable]: value })
        const exit = await server.exited
        expect(exit.code, server.output()).not.toBe(0)
        expect(server.stdout() + server.stderr()).toContain(delayVariable)
        if (reason !== undefined) expect(server.stdout() + server.stderr()).toContain(reason)
        expect(server.stdout()).not.toContain("petstore listening")
        expect(existsSync(dataDir)).toBe(false)
      },
      60_000
    )
  }
})
