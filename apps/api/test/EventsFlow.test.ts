/**
 * A project's events (contract section 5) end to end, through the BUILT API process (`dist/main.js`
 * on the embedded default, with its own worker loop and local CA) asking a real DNS server
 * (pebble-challtestsrv): a domain's life, added, verified by the worker once its CNAME exists, its
 * certificate issued, removed, is told in that order with the domain as each change left it; the
 * events page by `Link` as `/v1/pets` does; and they are still there, in order and numbered on, after
 * the process restarts on its data directory.
 */
import { afterAll, expect, layer } from "@effect/vitest"
import { Challtestsrv, challtestsrvLayer } from "@petstore/dns/testing"
import { TestServer } from "@petstore/http/testing"
import { Effect, Layer, Schedule } from "effect"
import { cleanUp, randomKey, send as sendTo, startServer, temporaryDirectory } from "./support/ApiProcess.js"
import { builtApiLayer, processPlatform } from "./support/BuiltApiServer.js"
import {
  addDomain,
  type DomainBody,
  domainOnce,
  domainPath,
  expectError,
  expectOk,
  getDomain,
  readyProject,
  send
} from "./support/DomainFlow.js"

afterAll(cleanUp)

interface EventBody {
  readonly id: string
  readonly type: string
  readonly occurredAt: string
  readonly projectId: string
  readonly hostname: string
  readonly data: DomainBody
}

const eventsPath = (projectId: string, query = "") => `/v1/projects/${projectId}/events${query}`

/** The target of the next page in a `Link` header, if any. */
const nextOf = (link: string | null | undefined): string | undefined =>
  link === null || link === undefined ? undefined : /^<([^>]+)>; rel="next"$/.exec(link)?.[1]

/** A 200 page of events with its `Link`, through the `TestServer` the layer provides. */
const page = (path: string) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const response = yield* server.request(path)
    const body = (yield* Effect.promise(() => response.json())) as ReadonlyArray<EventBody>
    expect(response.status, JSON.stringify(body)).toBe(200)
    return { events: body, link: response.headers.get("link") }
  })

/** Every event from `first` on, following `Link rel="next"`; and the size of each page. */
const followLinks = (first: string) =>
  Effect.gen(function* () {
    const events: Array<EventBody> = []
    const sizes: Array<number> = []
    let next: string | undefined = first
    while (next !== undefined) {
      const answer: { events: ReadonlyArray<EventBody>; link: string | null } = yield* page(next)
      events.push(...answer.events)
      sizes.push(answer.events.length)
      next = nextOf(answer.link)
      if (answer.link !== null) expect(next, answer.link).toBeDefined()
    }
    return { events, sizes }
  })

/** Ids are decimal digits of numbers that increase from one event to the next. */
const expectIdsInOrder = (events: ReadonlyArray<EventBody>) => {
  for (const event of events) expect(event.id).toMatch(/^[1-9][0-9]*$/)
  const ids = events.map((event) => BigInt(event.id))
  for (let n = 1; n < ids.length; n++) expect(ids[n - 1] ?? 0n).toBeLessThan(ids[n] ?? 0n)
}

const apiOnChalltestsrv = Layer.unwrap(Effect.map(Challtestsrv, (dns) => builtApiLayer(dns.server)))

// One pebble-challtestsrv for the whole file (see CustomDomainsFlow.test.ts: a second start in one
// process usually fails).
layer(challtestsrvLayer, { timeout: 30_000, excludeTestServices: true })("events end to end", (it) => {
  it.layer(apiOnChalltestsrv, { timeout: 120_000 })("through the built API process", (it) => {
    it.effect(
      "a domain's life: added, verified by the worker, its certificate issued, removed; each with the domain after the change",
      () =>
        Effect.gen(function* () {
          const dns = yield* Challtestsrv
          const hostname = "docs.events-flow.com"
          yield* readyProject("handbook")
          expect(yield* page(eventsPath("handbook"))).toEqual({ events: [], link: null })

          // The record exists before the domain is added: the embedded worker verifies it unasked.
          yield* dns.setCname(hostname, processPlatform.cnameTarget)
          const added = expectOk<DomainBody>(yield* addDomain("handbook", hostname), 201)
          expect(added.status).toBe("pending")
          yield* domainOnce("handbook", hostname, (domain) => domain.status === "verified")
          const issued = yield* domainOnce(
            "handbook",
            hostname,
            (domain) => domain.certificate.status === "issued",
            "30 seconds"
          )
          // Nothing changes a verified domain with its certificate until it is removed.
          const lastSeen = expectOk<DomainBody>(yield* getDomain("handbook", hostname))
          expect(lastSeen).toEqual(issued)
          expect((yield* send("DELETE", domainPath("handbook", hostname))).status).toBe(204)

          const { events, link } = yield* page(eventsPath("handbook", "?limit=100"))
          expect(link).toBeNull()
          expect(events.map((event) => event.type)).toEqual([
            "domain.added",
            "domain.verified",
            "certificate.issued",
            "domain.removed"
          ])
          const [whenAdded, whenVerified, whenIssued, whenRemoved] = events
          expect(whenAdded?.data).toEqual(added)
          // Verified by one write, the certificate asked for; issued by a later one.
          expect(whenVerified?.data).toMatchObject({
            status: "verified",
            verification: { problems: [] },
            certificate: { status: "pending", issuedAt: null }
          })
          expect(whenIssued?.data).toEqual(issued)
          // The removed domain as it was.
          expect(whenRemoved?.data).toEqual(lastSeen)
          for (const event of events) {
            expect(Object.keys(event).sort()).toEqual([
              "data",
              "hostname",
              "id",
              "occurredAt",
              "projectId",
              "type"
            ])
            expect(event).toMatchObject({ projectId: "handbook", hostname })
          }
          expectIdsInOrder(events)
          // One change after the other: their times follow the same order.
          const times = events.map((event) => Date.parse(event.occurredAt))
          expect([...times].sort((x, y) => x - y)).toEqual(times)
          // The worker's check happened before the write that verified the domain told it.
          expect(Date.parse(whenVerified?.occurredAt ?? "")).toBeGreaterThanOrEqual(
            Date.parse(whenVerified?.data.verification.lastCheckedAt ?? "")
          )
        }),
      120_000
    )

    it.effect("another account's project is not found; bad paging is refused as /v1/pets refuses it", () =>
      Effect.gen(function* () {
        expectError(yield* send("GET", eventsPath("handbook"), { as: "bob" }), 404, "not_found", "handbook")
        expectError(yield* send("GET", eventsPath("no-such-project")), 404, "not_found")
        expectError(yield* send("GET", eventsPath("handbook"), { as: "nobody" }), 401, "unauthorized")
        expectError(
          yield* send("GET", eventsPath("handbook", "?limit=101")),
          400,
          "invalid_request",
          "limit: must be an integer from 1 to 100"
        )
        expectError(
          yield* send("GET", "/v1/pets?limit=101"),
          400,
          "invalid_request",
          "limit: must be an integer from 1 to 100"
        )
        expectError(
          yield* send("GET", eventsPath("handbook", "?after=first")),
          400,
          "invalid_request",
          "after: must be an event id"
        )
      })
    )

    it.effect("more events than a page: each page links to the next, the last to none", () =>
      Effect.gen(function* () {
        yield* readyProject("catalog")
        const hostnames = Array.from({ length: 6 }, (_, n) => `page-${n}.events-paging.com`)
        for (const hostname of hostnames) expectOk(yield* addDomain("catalog", hostname), 201)
        // Removed, they change no more: the worker's checks of them (their problems) are all told.
        for (const hostname of hostnames) {
          expect((yield* send("DELETE", domainPath("catalog", hostname))).status).toBe(204)
        }
        const all = yield* page(eventsPath("catalog", "?limit=100"))
        expect(all.link).toBeNull()
        expect(
          all.events
            .filter((event) => event.type !== "domain.problems_changed")
            .map((event) => [event.type, event.hostname])
        ).toEqual([
          ...hostnames.map((hostname) => ["domain.added", hostname]),
          ...hostnames.map((hostname) => ["domain.removed", hostname])
        ])
        expectIdsInOrder(all.events)

        const paged = yield* followLinks(eventsPath("catalog", "?limit=5"))
        expect(paged.events).toEqual(all.events)
        const full = Math.floor(all.events.length / 5)
        const rest = all.events.length % 5
        expect(paged.sizes).toEqual([...Array.from({ length: full }, () => 5), ...(rest === 0 ? [] : [rest])])
        const first = yield* page(eventsPath("catalog", "?limit=5"))
        expect(first.link).toBe(
          `</v1/projects/catalog/events?limit=5&after=${all.events[4]?.id}>; rel="next"`
        )
      })
    )
  })

  it.effect(
    "the events survive a restart of the process on its data directory, and are numbered on after it",
    () =>
      Effect.gen(function* () {
        const dns = yield* Challtestsrv
        const key = randomKey()
        const dataDir = yield* Effect.promise(temporaryDirectory)
        const environment = {
          PETSTORE_DATA_DIR: dataDir,
          PETSTORE_BOOTSTRAP_KEY: key,
          PETSTORE_DNS_SERVERS: dns.server,
          PETSTORE_PLATFORM_DOMAIN: processPlatform.platformDomain,
          PETSTORE_CNAME_TARGET: processPlatform.cnameTarget,
          PETSTORE_WORKER_POLL_INTERVAL: "100 millis"
        }
        const started = () =>
          Effect.promise(async () => {
            const server = await startServer(environment)
            await server.listening(60_000)
            return server
          })
        const call = (baseUrl: string, method: string, path: string, body?: object) =>
          Effect.promise(() =>
            sendTo(baseUrl, path, { method, key, ...(body === undefined ? {} : { body }) })
          )
        const eventsOf = (baseUrl: string, query = "?limit=100") =>
          Effect.map(call(baseUrl, "GET", eventsPath("kept", query)), (answer) => {
            expect(answer.status, answer.text).toBe(200)
            return answer.json() as ReadonlyArray<EventBody>
          })

        const first = yield* started()
        expect((yield* call(first.baseUrl, "POST", "/v1/projects", { id: "kept", plan: "pro" })).status).toBe(
          201
        )
        expect(
          (yield* call(first.baseUrl, "POST", "/v1/projects/kept/deploys", { status: "succeeded" })).status
        ).toBe(201)
        for (const hostname of ["gone.kept-events.com", "stays.kept-events.com"]) {
          const added = yield* call(first.baseUrl, "POST", "/v1/projects/kept/domains", { hostname })
          expect(added.status, added.text).toBe(201)
        }
        expect(
          (yield* call(first.baseUrl, "DELETE", "/v1/projects/kept/domains/gone.kept-events.com")).status
        ).toBe(204)
        // Once the worker has checked the remaining domain (its problems told), nothing changes for 30 s.
        yield* Effect.gen(function* () {
          const events = yield* eventsOf(first.baseUrl)
          if (
            !events.some(
              (event) => event.type === "domain.problems_changed" && event.hostname.startsWith("stays")
            )
          )
            return yield* Effect.fail("not yet")
        }).pipe(Effect.retry(Schedule.spaced("100 millis")), Effect.timeout("15 seconds"))
        const before = yield* eventsOf(first.baseUrl)
        expect(before.map((event) => [event.type, event.hostname])).toEqual(
          expect.arrayContaining([
            ["domain.added", "gone.kept-events.com"],
            ["domain.added", "stays.kept-events.com"],
            ["domain.removed", "gone.kept-events.com"]
          ])
        )
        expect(yield* Effect.promise(() => first.terminate())).toEqual({ code: 0, signal: null })

        const second = yield* started()
        expect(yield* eventsOf(second.baseUrl)).toEqual(before)
        // The numbering goes on after the restart: the cursor of the last event reads only what is new.
        const last = before.at(-1)
        expect(
          (yield* call(second.baseUrl, "DELETE", "/v1/projects/kept/domains/stays.kept-events.com")).status
        ).toBe(204)
        const after = yield* eventsOf(second.baseUrl, `?after=${last?.id}`)
        expect(after.map((event) => [event.type, event.hostname])).toEqual([
          ["domain.removed", "stays.kept-events.com"]
        ])
        expect(BigInt(after[0]?.id ?? "0")).toBeGreaterThan(BigInt(last?.id ?? "0"))
        expect(yield* eventsOf(second.baseUrl)).toEqual([...before, ...after])
        expect(yield* Effect.promise(() => second.terminate())).toEqual({ code: 0, signal: null })
      }),
    180_000
  )
})
