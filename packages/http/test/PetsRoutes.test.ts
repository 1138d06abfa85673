/**
 * The plain routes of the animal operations (`PetsRoutes`, the hot path) answer them, and answer
 * exactly what their `HttpApi` handlers, the contract's definition, answer (architecture rule 7). Two
 * servers over storage in the same state, one serving the routes and one the handlers, get the same
 * requests in the same order: every documented answer and error by hand, then thousands generated from
 * the schemas and mutated (the fuzzing suite's generator). For every request the routes' server gets:
 * - it was answered by the hot route of the endpoint the contract routes it to, and by the `HttpApi`
 *   fallback only when the contract routes it to no hot endpoint (the server's composition tells who
 *   answered, `AnswerObserver`; the contract's routing is its endpoints in a router of their own);
 * - status, body and every header equal the handlers' server's, but `date` and a request id the server
 *   made up itself;
 * - a hot answer is documented in the committed OpenAPI document: its status listed, its body valid,
 *   each header it sends documented for that status.
 * Apart from those requests, the hot list itself is checked against the contract: every endpoint of
 * the animal group, each route at its endpoint's method and path.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { describe, expect, it } from "@effect/vitest"
import { PetstoreApi } from "@petstore/api"
import { PetRepository } from "@petstore/catalogue"
import type { RateLimitPolicies } from "@petstore/kernel"
import { MemoryStore } from "@petstore/store-memory"
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"
import { Context, Duration, Effect, Fiber, Layer, References } from "effect"
import * as FindMyWay from "effect/http/FindMyWay"
import * as HttpApi from "effect/http-api/HttpApi"
import type * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import type { AnswerObserver, RequestAdmission } from "../src/index.js"
import { petsHotOperations, petsRoutes } from "../src/PetsRoutes.js"
import { brokenStorage } from "./support/BrokenStorage.js"
import { fixedClockLayer } from "./support/FixedClock.js"
import { type FuzzRequest, generateRequests } from "./support/FuzzSuite.js"
import { type Ports, TestServer, TestServerLive } from "./support/TestServer.js"

/** Stand-ins for the two accounts' keys, replaced by each server's own before sending. */
const key = "KEY-PLACEHOLDER"
const otherKey = "OTHER-KEY-PLACEHOLDER"

interface Exchange {
  readonly method: string
  readonly path: string
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string | (() => ReadableStream<Uint8Array>)
}

const withKey = (headers: Readonly<Record<string, string>> = {}): Record<string, string> => ({
  authorization: `Bearer ${key}`,
  ...headers
})

const json = { "content-type": "application/json" }

/** A body sent in chunks without a `Content-Length`. */
const streamed = (bytes: number) => () =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      const chunk = new TextEncoder().encode("x".repeat(16 * 1024))
      for (let sent = 0; sent < bytes; sent += chunk.length) controller.enqueue(chunk)
      controller.close()
    }
  })

/** Every documented answer and error of the three operations, in an order that builds state. */
const byHand: ReadonlyArray<Exchange> = [
  { method: "GET", path: "/v1/pets", headers: withKey() },
  { method: "POST", path: "/v1/pets", headers: withKey(json), body: '{"name":"Rex","categoryId":1}' },
  {
    method: "POST",
    path: "/v1/pets",
    headers: withKey(json),
    body: '{"name":" Tom ","categoryId":2,"status":"sold","extra":true}'
  },
  {
    method: "POST",
    path: "/v1/pets",
    headers: withKey({ "content-type": "application/json; charset=utf-8", "idempotency-key": "key-1" }),
    body: '{"name":"Kit","categoryId":3,"status":"pending"}'
  },
  {
    method: "POST",
    path: "/v1/pets",
    headers: withKey({ ...json, "idempotency-key": "key-1" }),
    body: '{"name":"Kit","categoryId":3,"status":"pending"}'
  },
  {
    method: "POST",
    path: "/v1/pets",
    headers: withKey({ ...json, "idempotency-key": "key-1" }),
    body: '{"name":"Kat","categoryId":3}'
  },
  {
    method: "POST",
    path: "/v1/pets",
    headers: { authorization: `Bearer ${otherKey}`, ...json, "idempotency-key": "key-1" },
    body: '{"name":"Kat","categoryId":3}'
  },
  { method: "POST", path: "/v1/pets", headers: withKey({ ...json, "idempotency-key": "" }), body: "{}" },
  {
    method: "POST",
    path: "/v1/pets",
    headers: withKey({ ...json, "idempotency-key": "k".repeat(300) }),
    body: '{"name":"A","categoryId":1}'
  },
  ...[
    "",
    "{",
    "[]",
    `${"[".repeat(3_000)}${"]".repeat(3_000)}`,
    `{"name":"A","categoryId":1,"extra":${"[".repeat(63)}${"]".repeat(63)}}`,
    "null",
    '"text"',
    "{}",
    '{"name":"","categoryId":1}',
    '{"name":"   ","categoryId":1}',
    '{"name":"a\\u0007b","categoryId":1}',
    `{"name":"${"x".repeat(201)}","categoryId":1}`,
    '{"name":"A"}',
    '{"categoryId":1}',
    '{"name":"A","categoryId":0}',
    '{"name":"A","categoryId":1.5}',
    '{"name":"A","categoryId":"1"}',
    '{"name":"A","categoryId":9007199254740992}',
    '{"name":"A","categoryId":1,"status":"lost"}',
    '{"name":"A","categoryId":1,"status":null}',
    '{"name":"\\ud800","categoryId":1}'
  ].map((body): Exchange => ({ method: "POST", path: "/v1/pets", headers: withKey(json), body })),
  { method: "POST", path: "/v1/pets", headers: withKey(), body: '{"name":"A","categoryId":1}' },
  {
    method: "POST",
    path: "/v1/pets",
    headers: withKey({ "content-type": "text/plain" }),
    body: '{"name":"A","categoryId":1}'
  },
  {
    method: "POST",
    path: "/v1/pets",
    headers: withKey({ "content-type": "application/problem+json" }),
    body: '{"name":"A","categoryId":1}'
  },
  {
    method: "POST",
    path: "/v1/pets",
    headers: withKey(json),
    body: `{"name":"A","categoryId":1,"pad":"${"x".repeat(70_000)}"}`
  },
  { method: "POST", path: "/v1/pets", headers: withKey(json), body: streamed(100_000) },
  { method: "POST", path: "/v1/pets", headers: { ...json }, body: "{" },
  { method: "POST", path: "/v1/pets", headers: { authorization: "Bearer nope", ...json }, body: "{" },
  ...[
    "/v1/pets?limit=1",
    "/v1/pets?limit=1&after=1",
    "/v1/pets?limit=2&status=available",
    "/v1/pets?status=sold",
    "/v1/pets?status=pending&limit=100",
    "/v1/pets?after=3",
    "/v1/pets?limit=0",
    "/v1/pets?limit=101",
    "/v1/pets?limit=abc",
    "/v1/pets?limit=01",
    "/v1/pets?limit=1e1",
    "/v1/pets?limit=",
    "/v1/pets?limit=1&limit=2",
    "/v1/pets?status=lost",
    "/v1/pets?status=Sold",
    "/v1/pets?status=sold&status=pending",
    "/v1/pets?after=0",
    "/v1/pets?after=-1",
    "/v1/pets?after=9007199254740992",
    "/v1/pets?unknown=1&limit=1",
    "/v1/pets?limit=%FF",
    "/v1/pets/",
    "/v1/pets/1",
    "/v1/pets/2",
    "/v1/pets/999",
    "/v1/pets/0",
    "/v1/pets/01",
    "/v1/pets/abc",
    "/v1/pets/9007199254740992",
    "/v1/pets/%20",
    "/v1/pets/1/2"
  ].map((path): Exchange => ({ method: "GET", path, headers: withKey() })),
  ...["/v1/pets", "/v1/pets/1", "/v1/pets?limit=0"].flatMap(
    (path): ReadonlyArray<Exchange> => [
      { method: "GET", path },
      { method: "GET", path, headers: { authorization: "Bearer not-a-key" } },
      { method: "GET", path, headers: { authorization: "Basic dXNlcjpwYXNz" } },
      { method: "GET", path, headers: { authorization: "Bearer" } },
      { method: "GET", path, headers: { authorization: `bearer ${key}` } },
      { method: "GET", path, headers: { authorization: `Bearer  ${key}` } },
      { method: "GET", path, headers: { authorization: `Bearer ${key}`, "x-request-id": "trace-me-1" } },
      { method: "GET", path, headers: { authorization: `Bearer ${key}`, "x-request-id": "has space" } }
    ]
  ),
  { method: "PUT", path: "/v1/pets", headers: withKey(json), body: "{}" },
  { method: "DELETE", path: "/v1/pets/1", headers: withKey() },
  { method: "PATCH", path: "/v1/pets/1", headers: withKey(json), body: "{}" },
  { method: "HEAD", path: "/v1/pets", headers: withKey() },
  { method: "OPTIONS", path: "/v1/pets", headers: withKey() },
  { method: "GET", path: "/v1/pet", headers: withKey() }
]

interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

type Server = TestServer["Service"]

const send = (server: Server, exchange: Exchange): Effect.Effect<Answer> => {
  const substitute = (text: string) => text.replaceAll(otherKey, server.otherKey).replaceAll(key, server.key)
  const headers = Object.fromEntries(
    Object.entries(exchange.headers ?? {}).map(([name, value]) => [name, substitute(value)])
  )
  const body = typeof exchange.body === "function" ? exchange.body() : exchange.body
  return Effect.flatMap(
    server.request(exchange.path, {
      key: null,
      method: exchange.method,
      headers,
      ...(body === undefined ? {} : { body, duplex: "half" })
    }),
    (response) =>
      Effect.map(
        Effect.promise(() => response.text()),
        (text): Answer => {
          const seen: Record<string, string> = {}
          response.headers.forEach((value, name) => {
            if (name !== "date") seen[name] = value
          })
          // A request id the server made up differs between the servers; one it echoes may not.
          if (seen["x-request-id"] !== undefined && seen["x-request-id"] !== headers["x-request-id"]) {
            seen["x-request-id"] = "<generated>"
          }
          return { status: response.status, headers: seen, body: text.replaceAll(server.key, key) }
        }
      )
  )
}

const describeExchange = (exchange: Exchange) =>
  `${exchange.method} ${exchange.path.slice(0, 120)} ${JSON.stringify(exchange.headers ?? {}).slice(0, 200)} ${
    typeof exchange.body === "string"
      ? exchange.body.slice(0, 120)
      : exchange.body === undefined
        ? ""
        : "<stream>"
  }`

/** Who answered a request the routes' server got, as its composition told (`AnswerObserver`). */
interface Answerer {
  readonly method: string
  readonly url: string
  readonly by: string
}

const hotRouteOf = (endpoint: HttpApiEndpoint.Top) =>
  `the hot route of ${endpoint.identifier} (${endpoint.method} ${endpoint.path})`

const fallback = "the HttpApi fallback"

/** Records who answers each request, in order; `take` hands over what was recorded since the last. */
const makeWitness = () => {
  const seen: Array<Answerer> = []
  const observe: AnswerObserver = {
    hotRoute: (request, endpoint) =>
      void seen.push({ method: request.method, url: request.url, by: hotRouteOf(endpoint) }),
    httpApi: (request) => void seen.push({ method: request.method, url: request.url, by: fallback })
  }
  return { observe, take: () => seen.splice(0) }
}

type Witness = ReturnType<typeof makeWitness>

/** The hot operations, as the contract has them: every endpoint of its animal group. */
const hotEndpoints: ReadonlyArray<HttpApiEndpoint.Top> = Object.values(PetstoreApi.groups.pets.endpoints)

/** The contract's routing, apart from the server's: every endpoint of `PetstoreApi` at its method and path. */
const contractRouter = (() => {
  const router = FindMyWay.make<HttpApiEndpoint.Top>()
  HttpApi.reflect(PetstoreApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => router.on(endpoint.method, endpoint.path as FindMyWay.PathInput, endpoint)
  })
  return router
})()

/** The hot endpoint the contract routes a request to, if any (HEAD takes GET's route, as the router does). */
const hotEndpointOf = (method: string, url: string): HttpApiEndpoint.Top | undefined => {
  const found =
    contractRouter.find(method, url) ?? (method === "HEAD" ? contractRouter.find("GET", url) : undefined)
  return found !== undefined && hotEndpoints.includes(found.handler) ? found.handler : undefined
}

interface ResponseObject {
  readonly content?: Record<string, { readonly schema: object }>
  readonly headers?: Record<string, unknown>
}

/** The contract's committed document (`@petstore/api`'s `openapi.json`, what the server serves). */
const document = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve("@petstore/api/openapi.json"), "utf8")
) as {
  readonly paths: Record<
    string,
    Record<
      string,
      {
        readonly operationId: string
        readonly deprecated?: boolean
        readonly responses: Record<string, ResponseObject>
      }
    >
  >
  readonly components: object
}

const documentPath = (path: string) => path.replace(/:(\w+)/g, "{$1}")

const ajv = new Ajv2020({ strict: false, allErrors: true })
const validators = new Map<object, ValidateFunction>()
const validatorOf = (schema: object): ValidateFunction => {
  let validate = validators.get(schema)
  if (validate === undefined) {
    validate = ajv.compile({ ...schema, components: document.components })
    validators.set(schema, validate)
  }
  return validate
}

/** Headers of the connection and the body's framing: HTTP's, not the operation's. */
const transportHeaders = new Set([
  "connection",
  "content-length",
  "content-type",
  "keep-alive",
  "transfer-encoding"
])

/** A hot answer as the committed document states it: status, body, and the headers sent. */
const expectDocumented = (endpoint: HttpApiEndpoint.Top, method: string, answer: Answer, what: string) => {
  const operation = document.paths[documentPath(endpoint.path)]?.[endpoint.method.toLowerCase()]
  expect(operation?.operationId, `${what}: the document has ${endpoint.identifier}`).toBe(
    `pets.${endpoint.identifier}`
  )
  const response = operation?.responses[String(answer.status)]
  expect(response, `${what}: ${endpoint.identifier} documents ${answer.status}`).toBeDefined()
  const documentedHeaders = new Set(Object.keys(response?.headers ?? {}).map((name) => name.toLowerCase()))
  for (const name of Object.keys(answer.headers)) {
    if (transportHeaders.has(name)) continue
    expect(documentedHeaders.has(name), `${what}: ${answer.status} documents the header ${name}`).toBe(true)
  }
  const required = [
    "x-request-id",
    ...(answer.status === 201 ? ["location"] : []),
    ...(answer.status === 401 ? ["www-authenticate"] : []),
    ...(answer.status === 429 || answer.status === 503 ? ["retry-after"] : []),
    ...(operation?.deprecated === true ? ["deprecation", "sunset"] : [])
  ]
  for (const name of required) expect(answer.headers[name], `${what}: sends ${name}`).toBeDefined()
  expect(answer.headers["content-type"], what).toBe("application/json; charset=utf-8")
  // HEAD takes GET's route, and Node sends no body.
  if (method === "HEAD") return expect(answer.body, what).toBe("")
  const schema = response?.content?.["application/json"]?.schema
  expect(schema, `${what}: ${answer.status} has a JSON schema`).toBeDefined()
  if (schema === undefined) return
  const validate = validatorOf(schema)
  expect(validate(JSON.parse(answer.body)), `${what}: ${JSON.stringify(validate.errors)}`).toBe(true)
}

/**
 * What the answers were: every status, those of each hot operation, and how many requests the
 * fallback answered and how many the server answered before routing them.
 */
interface Tally {
  readonly statuses: Set<number>
  readonly byOperation: Map<string, Set<number>>
  fallback: number
  beforeRouting: number
}

const newTally = (): Tally => ({ statuses: new Set(), byOperation: new Map(), fallback: 0, beforeRouting: 0 })

const sortedStatuses = (statuses: Iterable<number>) => [...statuses].sort((a, b) => a - b)

const byOperation = (tally: Tally) =>
  Object.fromEntries(
    [...tally.byOperation].map(([operation, statuses]) => [operation, sortedStatuses(statuses)])
  )

/**
 * One exchange judged: `answerer` (who answered the routes' server) is the hot route of the endpoint
 * the contract routes the request to, or the fallback when that is no hot endpoint; the answers are
 * equal; a hot answer is as documented.
 */
const judge = (tally: Tally, exchange: Exchange, expected: Answer, actual: Answer, answerer: Answerer) => {
  const what = describeExchange(exchange)
  const endpoint = hotEndpointOf(answerer.method, answerer.url)
  expect(answerer.by, `${what}: who answered ${answerer.method} ${answerer.url}`).toBe(
    endpoint === undefined ? fallback : hotRouteOf(endpoint)
  )
  expect(actual, what).toEqual(expected)
  tally.statuses.add(actual.status)
  if (endpoint === undefined) {
    tally.fallback++
    return
  }
  expectDocumented(endpoint, answerer.method, actual, what)
  const statuses = tally.byOperation.get(endpoint.identifier) ?? new Set<number>()
  statuses.add(actual.status)
  tally.byOperation.set(endpoint.identifier, statuses)
}

/** The requests the routes' server got since the last call: exactly `count`. */
const answerers = (witness: Witness, count: number, what: string): ReadonlyArray<Answerer> => {
  const answered = witness.take()
  expect(answered.length, `${what}: requests that reached the app`).toBe(count)
  return answered
}

/**
 * What the server answers before any route is looked at, on every path alike, without the app: a
 * request Node's parser refuses (`MalformedRequest`) and an `Expect` it cannot meet (`ExpectationFailed`).
 * Closed connections without rate limits (no key was looked at); the body, unless HEAD hid it, says so.
 */
const isAnsweredBeforeRouting = (answer: Answer): boolean =>
  answer.headers.connection === "close" &&
  answer.headers.ratelimit === undefined &&
  ((answer.status === 400 &&
    (answer.body === "" ||
      /"message":"the request (?:line and headers are larger than 16 KiB|is not well-formed HTTP\/1\.1)"/.test(
        answer.body
      ))) ||
    (answer.status === 417 && (answer.body === "" || answer.body.includes('"code":"expectation_failed"'))))

interface Servers {
  readonly hot: Server
  readonly reference: Server
  readonly witness: Witness
}

/** Sends each exchange to both servers, the reference first, and judges each. */
const compareAll = ({ hot, reference, witness }: Servers, exchanges: ReadonlyArray<Exchange>) =>
  Effect.gen(function* () {
    const tally = newTally()
    for (const exchange of exchanges) {
      const expected = yield* send(reference, exchange)
      const actual = yield* send(hot, exchange)
      const what = describeExchange(exchange)
      if (isAnsweredBeforeRouting(actual)) {
        answerers(witness, 0, what)
        expect(actual, what).toEqual(expected)
        tally.statuses.add(actual.status)
        tally.beforeRouting++
        continue
      }
      const [answerer] = answerers(witness, 1, `${what} → ${actual.status} ${JSON.stringify(actual.headers)}`)
      if (answerer !== undefined) judge(tally, exchange, expected, actual, answerer)
    }
    return tally
  })

/** A server with the routes (observed) and one with the handlers, built from the same options. */
const servers = <E>(
  storage: () => Layer.Layer<Ports, E>,
  options: Omit<Parameters<typeof TestServerLive>[1] & object, "petsRoutes" | "observe"> = {},
  around: (layer: Layer.Layer<TestServer, unknown>) => Layer.Layer<TestServer, unknown> = (layer) => layer
) =>
  Effect.gen(function* () {
    const witness = makeWitness()
    const build = (petsRoutes: boolean) =>
      Effect.map(
        Layer.build(
          around(
            TestServerLive(storage(), {
              ...options,
              petsRoutes,
              ...(petsRoutes ? { observe: witness.observe } : {})
            })
          ).pipe(Layer.provide(Layer.succeed(References.MinimumLogLevel, "Warn")))
        ),
        (context) => Context.get(context, TestServer)
      )
    return { hot: yield* build(true), reference: yield* build(false), witness } satisfies Servers
  })

const fromFuzz = (request: FuzzRequest): Exchange => ({
  method: request.method,
  path: request.path,
  headers: request.headers,
  ...(request.body === undefined ? {} : { body: request.body })
})

/** Memory storage whose creations take `delay`: long enough for a retry to find its key in flight. */
const slowCreations = (delay: Duration.Input) => () =>
  Layer.effect(
    PetRepository,
    Effect.map(PetRepository, (pets) =>
      PetRepository.of({ ...pets, create: (pet, key) => Effect.delay(pets.create(pet, key), delay) })
    )
  ).pipe(Layer.provideMerge(MemoryStore.layer))

describe("PetsRoutes answer the hot operations, and what the HttpApi handlers answer", () => {
  it.effect("every documented answer and error, by hand", () =>
    Effect.gen(function* () {
      const tally = yield* compareAll(yield* servers(() => MemoryStore.layer), byHand)
      expect(sortedStatuses(tally.statuses)).toEqual([200, 201, 400, 401, 404, 405, 413, 415, 422])
      expect(byOperation(tally)).toEqual({
        listPets: [200, 400, 401],
        createPet: [201, 400, 401, 413, 415, 422],
        getPet: [200, 401, 404]
      })
      // PUT, DELETE, PATCH and OPTIONS on the animals' paths, /v1/pet and /v1/pets/1/2: the fallback's.
      expect(tally.fallback).toBe(6)
    })
  )

  it.effect(
    "3,000 requests generated from the schemas and mutated",
    () =>
      Effect.gen(function* () {
        const generated = yield* generateRequests({
          key,
          count: 3_000,
          seed: 4_242,
          only: (operation) => operation.template.startsWith("/v1/pets")
        })
        const tally = yield* compareAll(yield* servers(() => MemoryStore.layer), generated.map(fromFuzz))
        for (const status of [200, 201, 400, 401, 404, 415]) expect(tally.statuses).toContain(status)
        expect(Object.keys(byOperation(tally)).sort()).toEqual(["createPet", "getPet", "listPets"])
        // Stray paths and methods are generated too: the fallback answers hundreds of them.
        expect(tally.fallback).toBeGreaterThan(100)
      }),
    // 6,000 exchanges: about 15 s alone, twice that when the machine's two cores are busy.
    120_000
  )

  // Live: the slow storage sleeps in real time.
  it.live("409 for a retry while the first request with its key is in flight", () =>
    Effect.gen(function* () {
      const { hot, reference, witness } = yield* servers(slowCreations("400 millis"))
      const first: Exchange = {
        method: "POST",
        path: "/v1/pets",
        headers: withKey({ ...json, "idempotency-key": "in-flight" }),
        body: '{"name":"Slow","categoryId":1}'
      }
      const replayed: Exchange = { ...first, headers: withKey({ ...json, "idempotency-key": "in-flight" }) }
      // The retry is sent while the first request waits for its creation.
      const retried = (server: Server) =>
        Effect.gen(function* () {
          const original = yield* Effect.forkChild(send(server, first))
          yield* Effect.sleep("100 millis")
          const retry = yield* send(server, first)
          return [yield* Fiber.join(original), retry, yield* send(server, replayed)] as const
        })
      const expected = yield* retried(reference)
      const actual = yield* retried(hot)
      const tally = newTally()
      const answered = answerers(witness, 3, describeExchange(first))
      for (const [index, exchange] of [first, first, replayed].entries()) {
        const [expectedAnswer, actualAnswer, answerer] = [expected[index], actual[index], answered[index]]
        if (expectedAnswer === undefined || actualAnswer === undefined || answerer === undefined) continue
        judge(tally, exchange, expectedAnswer, actualAnswer, answerer)
      }
      expect(actual.map((answer) => answer.status)).toEqual([201, 409, 201])
      expect(actual[2]?.headers["idempotent-replayed"]).toBe("true")
      expect(byOperation(tally)).toEqual({ createPet: [201, 409] })
    })
  )

  it.effect("429 when a key or an address has no tokens left", () =>
    Effect.gen(function* () {
      const rateLimits: RateLimitPolicies = {
        perKey: { name: "api-key", limit: 3, window: Duration.seconds(60) },
        perAddress: { name: "client-address", limit: 2, window: Duration.seconds(60) }
      }
      const exchanges: ReadonlyArray<Exchange> = [
        ...["/v1/pets", "/v1/pets/1", "/v1/pets"].map(
          (path): Exchange => ({ method: "GET", path, headers: withKey() })
        ),
        { method: "GET", path: "/v1/pets", headers: withKey() },
        { method: "POST", path: "/v1/pets", headers: withKey(json), body: '{"name":"A","categoryId":1}' },
        { method: "GET", path: "/v1/pets/1", headers: withKey() },
        ...[1, 2, 3].map((): Exchange => ({ method: "GET", path: "/v1/pets" }))
      ]
      const tally = yield* compareAll(yield* servers(() => MemoryStore.layer, { rateLimits }), exchanges)
      expect(sortedStatuses(tally.statuses)).toEqual([200, 401, 404, 429])
      expect(byOperation(tally)).toEqual({ listPets: [200, 401, 429], createPet: [429], getPet: [404, 429] })
    })
  )

  it.effect("410 from the removal date", () =>
    Effect.gen(function* () {
      const exchanges: ReadonlyArray<Exchange> = [
        { method: "POST", path: "/v1/pets", headers: withKey(json), body: '{"name":"A","categoryId":1}' },
        ...["/v1/pets/1", "/v1/pets/2", "/v1/pets/abc", "/v1/pets?limit=1"].map(
          (path): Exchange => ({ method: "GET", path, headers: withKey() })
        ),
        { method: "GET", path: "/v1/pets/1" }
      ]
      const tally = yield* compareAll(
        yield* servers(
          () => MemoryStore.layer,
          {},
          (layer) => layer.pipe(Layer.provide(fixedClockLayer(new Date("2030-12-05T00:00:00.000Z"))))
        ),
        exchanges
      )
      expect(sortedStatuses(tally.statuses)).toEqual([200, 201, 401, 410])
      expect(byOperation(tally)).toEqual({ createPet: [201], getPet: [401, 410], listPets: [200] })
    })
  )

  it.effect("503 with Retry-After when storage fails", () =>
    Effect.gen(function* () {
      const exchanges: ReadonlyArray<Exchange> = [
        { method: "GET", path: "/v1/pets", headers: withKey() },
        { method: "GET", path: "/v1/pets/1", headers: withKey() },
        { method: "POST", path: "/v1/pets", headers: withKey(json), body: '{"name":"A","categoryId":1}' },
        {
          method: "POST",
          path: "/v1/pets",
          headers: withKey({ ...json, "idempotency-key": "k-1" }),
          body: '{"name":"A","categoryId":1}'
        }
      ]
      const tally = yield* compareAll(yield* servers(brokenStorage), exchanges)
      expect(byOperation(tally)).toEqual({ listPets: [503], getPet: [503], createPet: [503] })
    })
  )
})

/** Routes are only built here, never asked: no request is admitted. */
const noAdmission: RequestAdmission = () => Effect.die("no request is answered here")

describe("the hot list is the contract's", () => {
  it("every endpoint of the animal group is hot, once, as PetstoreApi serves it", () => {
    expect(petsHotOperations.map(({ endpoint }) => endpoint.identifier).sort()).toEqual(
      hotEndpoints.map((endpoint) => endpoint.identifier).sort()
    )
    for (const endpoint of hotEndpoints) {
      expect(petsHotOperations.filter((operation) => operation.endpoint === endpoint)).toHaveLength(1)
    }
  })

  it("each hot route has its endpoint's method and path, which the document publishes", () => {
    const routes = petsRoutes(noAdmission)
    expect(routes.map(({ route }) => `${route.method} ${route.path}`).sort()).toEqual(
      hotEndpoints.map((endpoint) => `${endpoint.method} ${endpoint.path}`).sort()
    )
    for (const { endpoint, route } of routes) {
      expect(route.method).toBe(endpoint.method)
      expect(route.path).toBe(endpoint.path)
      expect(document.paths[documentPath(route.path)]?.[route.method.toLowerCase()]?.operationId).toBe(
        `pets.${endpoint.identifier}`
      )
    }
  })
})
