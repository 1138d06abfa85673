/**
 * A project's events (contract section 5) through a real server on the in-memory store: a domain's
 * life (added, a check that found problems, verified, removed) told in order with the domain after each
 * change, paged exactly like `GET /v1/pets` (its limits, its error messages, its `Link`), and seen
 * only by the project's own account.
 */
import { describe, expect, layer } from "@effect/vitest"
import { makePetstoreClient } from "@petstore/api"
import { ListLimit } from "@petstore/catalogue"
import { type DnsAnswer, DnsResolver } from "@petstore/domains"
import { DomainEvent } from "@petstore/events"
import { MemoryStore } from "@petstore/store-memory"
import { Effect, Layer } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import {
  EmptyDns,
  expectError,
  json,
  jsonPost,
  TestServer,
  TestServerLive,
  testPlatform
} from "./support/TestServer.js"

interface EventBody {
  readonly id: string
  readonly type: string
  readonly occurredAt: string
  readonly projectId: string
  readonly hostname: string
  readonly data: { readonly hostname: string; readonly status: string }
}

type Caller = "alice" | "bob"

/** DNS where the names a test points at the platform have their CNAME; nothing else has records. */
const cnames = new Set<string>()
const dns = Layer.effect(
  DnsResolver,
  Effect.map(DnsResolver, (empty) => ({
    ...empty,
    cname: (name: string) =>
      Effect.sync(
        (): DnsAnswer<string> =>
          cnames.has(name)
            ? { _tag: "Records", records: [testPlatform.cnameTarget] }
            : { _tag: "NoRecords", reason: "nxdomain" }
      )
  }))
).pipe(Layer.provide(EmptyDns))

const send = (path: string, init: RequestInit = {}, as: Caller = "alice") =>
  Effect.flatMap(TestServer, (server) =>
    server.request(path, { ...init, key: as === "bob" ? server.otherKey : server.key })
  )

const eventsPath = (projectId: string, query = "") => `/v1/projects/${projectId}/events${query}`

/** A 200 page of events and its `Link` header (null when absent). */
const page = (path: string, as?: Caller) =>
  Effect.gen(function* () {
    const response = yield* send(path, {}, as)
    const body = yield* json(response)
    expect(response.status, JSON.stringify(body)).toBe(200)
    expect(Array.isArray(body)).toBe(true)
    return { events: body as ReadonlyArray<EventBody>, link: response.headers.get("link") }
  })

/** Every event of the project, following `Link rel="next"` from `first`; the pages' sizes too. */
const followLinks = (first: string) =>
  Effect.gen(function* () {
    const events: Array<EventBody> = []
    const sizes: Array<number> = []
    let next: string | undefined = first
    while (next !== undefined) {
      const { events: found, link }: { events: ReadonlyArray<EventBody>; link: string | null } =
        yield* page(next)
      events.push(...found)
      sizes.push(found.length)
      next = link === null ? undefined : /^<([^>]+)>; rel="next"$/.exec(link)?.[1]
      if (link !== null) expect(next, link).toBeDefined()
    }
    return { events, sizes }
  })

/** A paid project with a successful deploy, of `as`. */
const readyProject = (id: string, as: Caller = "alice") =>
  Effect.gen(function* () {
    expect((yield* send("/v1/projects", jsonPost({ id, plan: "pro" }), as)).status).toBe(201)
    expect((yield* send(`/v1/projects/${id}/deploys`, jsonPost({ status: "succeeded" }), as)).status).toBe(
      201
    )
  })

const addDomain = (projectId: string, hostname: string) =>
  Effect.gen(function* () {
    const response = yield* send(`/v1/projects/${projectId}/domains`, jsonPost({ hostname }))
    expect(response.status).toBe(201)
    return yield* json(response)
  })

const domainAnswer = (path: string, init: RequestInit = {}) =>
  Effect.gen(function* () {
    const response = yield* send(path, init)
    expect(response.status).toBe(200)
    return yield* json(response)
  })

const domainPath = (projectId: string, hostname: string) => `/v1/projects/${projectId}/domains/${hostname}`

layer(TestServerLive(MemoryStore.layer, { dns }), { excludeTestServices: true })(
  "a project's events",
  (it) => {
    it.effect(
      "tell a domain's life in order, each with the domain as the change left it, paged by Link",
      () =>
        Effect.gen(function* () {
          yield* readyProject("life")
          expect(yield* page(eventsPath("life"))).toEqual({ events: [], link: null })

          const hostname = "docs.life-story.com"
          const added = yield* addDomain("life", hostname)
          // Verify before the record exists: the check's problems are a change of their own.
          const unverified = yield* domainAnswer(`${domainPath("life", hostname)}/verify`, { method: "POST" })
          expect(unverified).toMatchObject({
            status: "pending",
            verification: { problems: [{ code: "record_not_found" }] }
          })
          cnames.add(hostname)
          const verified = yield* domainAnswer(`${domainPath("life", hostname)}/verify`, { method: "POST" })
          expect(verified).toMatchObject({ status: "verified" })
          const lastSeen = yield* domainAnswer(domainPath("life", hostname))
          expect((yield* send(domainPath("life", hostname), { method: "DELETE" })).status).toBe(204)

          const { events, link } = yield* page(eventsPath("life"))
          expect(link).toBeNull()
          expect(events.map((event) => event.type)).toEqual([
            "domain.added",
            "domain.problems_changed",
            "domain.verified",
            "domain.removed"
          ])
          // `data` is the domain after each change, exactly as the API answered it; the removed one as it was.
          expect(events.map((event) => event.data)).toEqual([added, unverified, verified, lastSeen])
          for (const event of events) {
            expect(Object.keys(event).sort()).toEqual([
              "data",
              "hostname",
              "id",
              "occurredAt",
              "projectId",
              "type"
            ])
            expect(event).toMatchObject({ projectId: "life", hostname })
            expect(event.id).toMatch(/^[1-9][0-9]*$/)
            expect(new Date(event.occurredAt).toISOString()).toBe(event.occurredAt)
          }
          const ids = events.map((event) => BigInt(event.id))
          expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(ids)
          expect(new Set(ids).size).toBe(ids.length)

          // One event a page: each page links to the next, the last to none.
          const [first, second, third, fourth] = events
          const single = yield* page(eventsPath("life", "?limit=1"))
          expect(single).toEqual({
            events: [first],
            link: `</v1/projects/life/events?limit=1&after=${first?.id}>; rel="next"`
          })
          expect(yield* followLinks(eventsPath("life", "?limit=1"))).toEqual({ events, sizes: [1, 1, 1, 1] })
          expect(yield* followLinks(eventsPath("life", "?limit=3"))).toEqual({ events, sizes: [3, 1] })
          // A page that ends exactly at the last event has no Link: nothing follows it.
          expect(yield* page(eventsPath("life", "?limit=4"))).toEqual({ events, link: null })
          expect(yield* page(eventsPath("life", `?after=${second?.id}`))).toEqual({
            events: [third, fourth],
            link: null
          })
          expect(yield* page(eventsPath("life", `?after=${second?.id}&limit=1`))).toEqual({
            events: [third],
            link: `</v1/projects/life/events?limit=1&after=${third?.id}>; rel="next"`
          })
          expect(yield* page(eventsPath("life", `?after=${fourth?.id}`))).toEqual({ events: [], link: null })
          // A cursor past every event there is, and one of another project's numbering, are just positions.
          expect(yield* page(eventsPath("life", "?after=9223372036854775807"))).toEqual({
            events: [],
            link: null
          })
        })
    )

    it.effect("page 20 events by default, the Link naming the limit as the animals' does", () =>
      Effect.gen(function* () {
        yield* readyProject("many")
        const hostnames = Array.from({ length: 21 }, (_, n) => `site-${n}.many-events.com`)
        for (const hostname of hostnames) yield* addDomain("many", hostname)
        const first = yield* page(eventsPath("many"))
        expect(first.events).toHaveLength(20)
        expect(first.link).toBe(
          `</v1/projects/many/events?limit=20&after=${first.events[19]?.id}>; rel="next"`
        )
        const all = yield* followLinks(eventsPath("many"))
        expect(all.sizes).toEqual([20, 1])
        expect(all.events.map((event) => [event.type, event.hostname])).toEqual(
          hostnames.map((hostname) => ["domain.added", hostname])
        )
        expect(yield* followLinks(eventsPath("many", "?limit=100"))).toEqual({
          events: all.events,
          sizes: [21]
        })
      })
    )

    describe("bad paging parameters", () => {
      it.effect("a bad limit is refused as GET /v1/pets refuses it, word for word", () =>
        Effect.gen(function* () {
          yield* readyProject("limits")
          for (const limit of ["0", "101", "abc", "1.5", "-1", "", "01", "1e2", " 5", "limit=5&limit=6"]) {
            const query = limit.startsWith("limit=") ? `?${limit}` : `?limit=${encodeURIComponent(limit)}`
            const refused = yield* expectError(
              yield* send(eventsPath("limits", query)),
              400,
              "invalid_request"
            )
            const pets = yield* expectError(yield* send(`/v1/pets${query}`), 400, "invalid_request")
            expect(refused.message, query).toBe("limit: must be an integer from 1 to 100")
            expect(refused).toEqual(pets)
          }
        })
      )

      it.effect("an after that is not an event id is refused", () =>
        Effect.gen(function* () {
          yield* readyProject("cursors")
          for (const query of [
            "?after=0",
            "?after=abc",
            "?after=-1",
            "?after=01",
            "?after=1.5",
            "?after=",
            "?after=%201",
            "?after=12345678901234567890",
            "?after=1&after=2"
          ]) {
            const refused = yield* expectError(
              yield* send(eventsPath("cursors", query)),
              400,
              "invalid_request"
            )
            expect(refused.message, query).toBe("after: must be an event id")
          }
        })
      )
    })

    describe("whose events", () => {
      it.effect("another account's project, and one that does not exist, are not found alike", () =>
        Effect.gen(function* () {
          yield* readyProject("alices")
          yield* addDomain("alices", "docs.alices-events.com")
          yield* readyProject("bobs", "bob")
          const hidden = yield* expectError(yield* send(eventsPath("alices"), {}, "bob"), 404, "not_found")
          expect(hidden.message).toBe('no project "alices"')
          const unknown = yield* expectError(yield* send(eventsPath("nowhere")), 404, "not_found")
          expect(unknown.message).toBe('no project "nowhere"')
          expect((yield* expectError(yield* send(eventsPath("bobs")), 404, "not_found")).message).toBe(
            'no project "bobs"'
          )
          // Nor does a bad cursor tell an existing project of another account from none.
          yield* expectError(
            yield* send(eventsPath("alices", "?after=abc"), {}, "bob"),
            400,
            "invalid_request"
          )
          yield* expectError(yield* send(eventsPath("Not%20A%20Slug")), 404, "not_found")
          // Bob's project has none of Alice's events.
          expect(yield* page(eventsPath("bobs"), "bob")).toEqual({ events: [], link: null })
          expect((yield* page(eventsPath("alices"))).events.map((event) => event.projectId)).toEqual([
            "alices"
          ])
        })
      )

      it.effect(
        "needs a key, and answers with the request id and rate-limit headers of every project route",
        () =>
          Effect.gen(function* () {
            const server = yield* TestServer
            yield* expectError(
              yield* server.request(eventsPath("alices"), { key: null }),
              401,
              "unauthorized"
            )
            const answered = yield* server.request(eventsPath("alices"), {
              headers: { "x-request-id": "events-1" }
            })
            expect(answered.status).toBe(200)
            expect(answered.headers.get("x-request-id")).toBe("events-1")
            expect(answered.headers.get("ratelimit-policy")).toMatch(/^"api-key";q=\d+;w=60$/)
            expect(answered.headers.get("ratelimit")).toMatch(/^"api-key";r=\d+;t=\d+$/)
            expect(answered.headers.get("content-type")).toMatch(/^application\/json/)
          })
      )
    })

    it.effect("the typed client reads them as the domain's Event, and another account's as not found", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const alice = yield* makePetstoreClient({ baseUrl: server.baseUrl, apiKey: server.key })
        const events = yield* alice.events.listEvents({
          params: { projectId: "alices" },
          query: { limit: ListLimit.make(1) }
        })
        expect(events).toHaveLength(1)
        expect(events[0]).toBeInstanceOf(DomainEvent)
        expect(events[0]).toMatchObject({ type: "domain.added", hostname: "docs.alices-events.com" })
        expect(events[0]?.data.status).toBe("pending")
        const bob = yield* makePetstoreClient({ baseUrl: server.baseUrl, apiKey: server.otherKey })
        const hidden = yield* Effect.flip(
          bob.events.listEvents({ params: { projectId: "alices" }, query: {} })
        )
        expect(hidden).toMatchObject({ code: "not_found", status: 404 })
      }).pipe(Effect.provide(FetchHttpClient.layer))
    )

    it.effect("the OpenAPI document shows the operation and the Event schema", () =>
      Effect.gen(function* () {
        const document = (yield* json(yield* send("/v1/openapi.json"))) as {
          readonly paths: Record<string, Record<string, { readonly operationId: string }>>
          readonly components: { readonly schemas: Record<string, unknown> }
        }
        expect(document.paths["/v1/projects/{projectId}/events"]?.get?.operationId).toBe("events.listEvents")
        expect(document.components.schemas.Event).toMatchObject({
          properties: { data: { $ref: "#/components/schemas/Domain" } }
        })
      })
    )
  }
)
