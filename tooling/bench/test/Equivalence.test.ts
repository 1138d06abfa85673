/**
 * Keeps the benchmark honest: the baselines (Fastify with pino's request log, Fastify without a
 * logger, raw `node:http`) must answer what the built product answers, request for request: status,
 * the headers a client acts on, and the JSON body (generated ids aside, where each server necessarily
 * creates its own animal); and the reference must log what the product logs, one line per request.
 * All four run on one throwaway database; an unreachable PostgreSQL fails the suite.
 */
import { createHash } from "node:crypto"
import { NodeProcess } from "@petstore/testing"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  cleanUp,
  freshDatabase,
  type HttpResponse,
  type RequestOptions,
  type ServerName,
  send,
  serverNames,
  startAllServers,
  type TestServer
} from "./support/TestServers.js"

const key = `pk_test_${globalThis.crypto.randomUUID().replaceAll("-", "")}`
const revokedKey = `pk_test_${globalThis.crypto.randomUUID().replaceAll("-", "")}`
const auth = { authorization: `Bearer ${key}` }
const json = { ...auth, "content-type": "application/json" }

/** The headers a client acts on; `x-request-id` only when the request chose it. */
const comparedHeaders = [
  "content-type",
  "link",
  "deprecation",
  "sunset",
  "www-authenticate",
  "location",
  "allow",
  "idempotent-replayed",
  "retry-after"
] as const

interface Observed {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: unknown
}

const observe = (response: HttpResponse, request: RequestOptions): Observed => {
  const names =
    request.headers?.["x-request-id"] === undefined ? comparedHeaders : [...comparedHeaders, "x-request-id"]
  const headers: Record<string, string | Array<string> | undefined> = {}
  for (const name of names) headers[name] = response.headers[name]
  const isJson = String(response.headers["content-type"] ?? "").startsWith("application/json")
  return {
    status: response.status,
    headers,
    body: isJson && response.text !== "" ? (JSON.parse(response.text) as unknown) : response.text
  }
}

/** A created animal's answer with its id (in the body and in `Location`) replaced by a placeholder. */
const withoutCreatedId = (observed: Observed): Observed => {
  const body = observed.body as { readonly id?: unknown }
  expect(typeof body.id).toBe("number")
  expect(observed.headers.location).toBe(`/v1/pets/${String(body.id)}`)
  return {
    ...observed,
    headers: { ...observed.headers, location: "/v1/pets/<id>" },
    body: { ...(observed.body as object), id: "<id>" }
  }
}

let servers: Readonly<Record<ServerName, TestServer>>
const urlOf = (name: ServerName): string => servers[name].url
const baselines = serverNames.filter((name) => name !== "product")

/** Sends the request to each server in turn; every answer has a request id. */
const askAll = async (path: string, request: RequestOptions = {}) => {
  const answers: Partial<Record<ServerName, HttpResponse>> = {}
  for (const name of serverNames) {
    const response = await send(urlOf(name), path, request)
    expect(response.headers["x-request-id"], `${name}: x-request-id`).toMatch(/^[\x21-\x7E]{1,200}$/)
    answers[name] = response
  }
  return answers as Record<ServerName, HttpResponse>
}

const expectSameAnswers = async (
  path: string,
  request: RequestOptions = {},
  normalise: (observed: Observed) => Observed = (observed) => observed
): Promise<Record<ServerName, Observed>> => {
  const answers = await askAll(path, request)
  const observed = {
    product: observe(answers.product, request),
    "fastify-pino": observe(answers["fastify-pino"], request),
    fastify: observe(answers.fastify, request),
    raw: observe(answers.raw, request)
  }
  for (const name of baselines)
    expect(normalise(observed[name]), `${name} answers as the product does`).toEqual(
      normalise(observed.product)
    )
  return observed
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

beforeAll(async () => {
  const database = await freshDatabase()
  servers = await startAllServers(database.url, key)
  const client = new pg.Client({ connectionString: database.url })
  await client.connect()
  try {
    await client.query(
      `insert into pets (name, category_id, status) values
         ('Rex', 1, 'available'), ('Tom', 2, 'sold'), ('Tim', 2, 'sold'), ('Ünïcødé 🐈', 3, 'pending'),
         ($1, 4, 'available'), ('Bo', 9007199254740991, 'sold'), ('Kit', 5, 'available')`,
      ['He said "hi" \\ and\u2028left']
    )
    await client.query(
      `insert into api_keys (id, account, hash, created_at, revoked_at)
       values ('key_00000000000000aa', 'default', $1, now(), now())`,
      [sha256(revokedKey)]
    )
  } finally {
    await client.end()
  }
}, 180_000)

afterAll(cleanUp)

describe("GET /v1/pets", () => {
  const cases: ReadonlyArray<readonly [string, string]> = [
    ["the first page", "/v1/pets"],
    ["a status filter with a next page", "/v1/pets?status=sold&limit=1"],
    ["the page a cursor names", "/v1/pets?limit=1&status=sold&after=2"],
    ["a limit without a filter", "/v1/pets?limit=2"],
    ["the last page", "/v1/pets?limit=100&status=available"],
    ["unknown parameters ignored", "/v1/pets?foo=1&limit=3"],
    ["a trailing slash", "/v1/pets/?limit=2"],
    ["percent-encoded parameters", "/v1/pets?status=%73old&limit=%31"],
    ["limit 0", "/v1/pets?limit=0"],
    ["limit 101", "/v1/pets?limit=101"],
    ["limit not a number", "/v1/pets?limit=abc"],
    ["limit with a leading zero", "/v1/pets?limit=01"],
    ["limit empty", "/v1/pets?limit="],
    ["limit repeated", "/v1/pets?limit=1&limit=2"],
    ["limit with a sign", "/v1/pets?limit=%2B1"],
    ["an unknown status", "/v1/pets?status=dead"],
    ["status repeated", "/v1/pets?status=sold&status=sold"],
    ["cursor 0", "/v1/pets?after=0"],
    ["cursor not a number", "/v1/pets?after=x"],
    ["cursor beyond 2^53-1", "/v1/pets?after=9007199254740992"],
    ["several bad parameters: limit is named first", "/v1/pets?after=x&status=dead&limit=0"],
    ["status and cursor bad: status is named first", "/v1/pets?after=x&status=dead"]
  ]
  for (const [name, path] of cases) it(name, () => expectSameAnswers(path, { headers: auth }))

  it("follows Link rel=next to the end, with the same pages", async () => {
    let path: string | undefined = "/v1/pets?limit=2"
    let pages = 0
    while (path !== undefined) {
      const observed = await expectSameAnswers(path, { headers: auth })
      const link = observed.product.headers.link
      path = typeof link === "string" ? /<([^>]+)>; rel="next"/.exec(link)?.[1] : undefined
      pages++
    }
    expect(pages).toBeGreaterThan(2)
  })
})

describe("GET /v1/pets/{petId} (deprecated)", () => {
  const cases: ReadonlyArray<readonly [string, string]> = [
    ["an animal", "/v1/pets/1"],
    ["names that need escaping", "/v1/pets/5"],
    ["the largest category id", "/v1/pets/6"],
    ["a trailing slash", "/v1/pets/1/"],
    ["a percent-encoded id", "/v1/pets/%31"],
    ["an unknown id", "/v1/pets/999999"],
    ["a leading zero", "/v1/pets/01"],
    ["not a number", "/v1/pets/abc"],
    ["an encoded quote", "/v1/pets/%22x"],
    ["beyond 2^53-1", "/v1/pets/9007199254740992"],
    ["an undecodable segment", "/v1/pets/%zz"]
  ]
  for (const [name, path] of cases) it(name, () => expectSameAnswers(path, { headers: auth }))
  it("HEAD", () => expectSameAnswers("/v1/pets/1", { method: "HEAD", headers: auth }))
})

describe("the API key is checked first", () => {
  it("no key on the list", () => expectSameAnswers("/v1/pets"))
  it("no key on get-by-id (with the deprecation headers)", () => expectSameAnswers("/v1/pets/1"))
  it("an unknown key on get-by-id", () =>
    expectSameAnswers("/v1/pets/1", { headers: { authorization: "Bearer pk_live_nope" } }))
  it("a revoked key", () =>
    expectSameAnswers("/v1/pets", { headers: { authorization: `Bearer ${revokedKey}` } }))
  it("another scheme", () => expectSameAnswers("/v1/pets", { headers: { authorization: "Basic YTpi" } }))
  it("the scheme alone", () => expectSameAnswers("/v1/pets", { headers: { authorization: "Bearer" } }))
  it("a malformed token", () => expectSameAnswers("/v1/pets", { headers: { authorization: "Bearer a,b" } }))
  it("a lower-case scheme and extra spaces", () =>
    expectSameAnswers("/v1/pets", { headers: { authorization: `bearer   ${key}  ` } }))
  it("a bad key before a bad limit", () =>
    expectSameAnswers("/v1/pets?limit=0", { headers: { authorization: "Bearer pk_live_nope" } }))
  it("no key before a body that is not JSON", () =>
    expectSameAnswers("/v1/pets", { method: "POST", headers: { "content-type": "text/plain" }, body: "x" }))
})

describe("routes and request ids", () => {
  it("DELETE /v1/pets is 405 with Allow", () =>
    expectSameAnswers("/v1/pets", { method: "DELETE", headers: auth }))
  it("PUT /v1/pets/1 is 405 with Allow", () =>
    expectSameAnswers("/v1/pets/1", { method: "PUT", headers: auth }))
  it("OPTIONS /v1/pets is 405", () => expectSameAnswers("/v1/pets", { method: "OPTIONS", headers: auth }))
  it("an unknown path is 404", () => expectSameAnswers("/v1/nothing", { headers: auth }))
  it("a client's X-Request-Id is echoed", () =>
    expectSameAnswers("/v1/pets?limit=1", { headers: { ...auth, "x-request-id": "bench-equivalence-1" } }))
})

describe("POST /v1/pets refusals", () => {
  const big = JSON.stringify({ name: "a", categoryId: 1, pad: "x".repeat(70_000) })
  const cases: ReadonlyArray<readonly [string, RequestOptions]> = [
    [
      "text/plain is 415",
      { headers: { ...auth, "content-type": "text/plain" }, body: '{"name":"a","categoryId":1}' }
    ],
    ["no Content-Type is 415", { headers: auth, body: '{"name":"a","categoryId":1}' }],
    [
      "another +json type (415)",
      {
        headers: { ...auth, "content-type": "application/merge-patch+json" },
        body: '{"name":"a","categoryId":1}'
      }
    ],
    ["malformed JSON", { headers: json, body: '{"name":' }],
    ["an empty body", { headers: json, body: "" }],
    ["only spaces", { headers: json, body: "  " }],
    ["an array", { headers: json, body: "[]" }],
    ["null", { headers: json, body: "null" }],
    ["a string", { headers: json, body: '"x"' }],
    ["no fields", { headers: json, body: "{}" }],
    ["no categoryId", { headers: json, body: '{"name":"x"}' }],
    ["a number as name", { headers: json, body: '{"name":1,"categoryId":1}' }],
    ["null as name", { headers: json, body: '{"name":null,"categoryId":1}' }],
    ["an empty name", { headers: json, body: '{"name":"","categoryId":1}' }],
    ["a blank name", { headers: json, body: '{"name":"  ","categoryId":1}' }],
    ["a control character", { headers: json, body: '{"name":"a\\u0001","categoryId":1}' }],
    ["201 characters", { headers: json, body: JSON.stringify({ name: "é".repeat(201), categoryId: 1 }) }],
    ["a fractional categoryId", { headers: json, body: '{"name":"a","categoryId":1.5}' }],
    ["categoryId as a string", { headers: json, body: '{"name":"a","categoryId":"1"}' }],
    ["categoryId 0", { headers: json, body: '{"name":"a","categoryId":0}' }],
    ["categoryId beyond 2^53-1", { headers: json, body: '{"name":"a","categoryId":9007199254740993}' }],
    ["categoryId null", { headers: json, body: '{"name":"a","categoryId":null}' }],
    ["an unknown status", { headers: json, body: '{"name":"a","categoryId":1,"status":"dead"}' }],
    ["status null", { headers: json, body: '{"name":"a","categoryId":1,"status":null}' }],
    ["several problems: name first", { headers: json, body: '{"status":"dead","categoryId":0,"name":""}' }],
    ["a declared body over 64 KiB", { headers: json, body: big }],
    [
      "a declared body over 64 KiB that is not JSON",
      { headers: { ...auth, "content-type": "text/plain" }, body: big }
    ],
    ["a chunked body over 64 KiB", { headers: json, body: big, chunked: true }],
    [
      "a chunked body that is not JSON",
      { headers: { ...auth, "content-type": "text/plain" }, body: big, chunked: true }
    ],
    [
      "an Idempotency-Key with a space",
      { headers: { ...json, "idempotency-key": "a b" }, body: '{"name":"a","categoryId":1}' }
    ],
    [
      "an empty Idempotency-Key",
      { headers: { ...json, "idempotency-key": "" }, body: '{"name":"a","categoryId":1}' }
    ],
    [
      "a bad body before a bad Idempotency-Key",
      { headers: { ...json, "idempotency-key": "a b" }, body: '{"name":"","categoryId":1}' }
    ]
  ]
  for (const [name, request] of cases)
    it(name, () => expectSameAnswers("/v1/pets", { method: "POST", ...request }))
})

describe("POST /v1/pets creations", () => {
  const creates: ReadonlyArray<readonly [string, RequestOptions]> = [
    ["the least body", { headers: json, body: '{"name":"Rex","categoryId":1}' }],
    [
      "a status, unknown fields ignored",
      { headers: json, body: '{"name":"Tim","categoryId":2,"status":"sold","x":1}' }
    ],
    [
      "a charset parameter and an upper-case type",
      {
        headers: { ...auth, "content-type": "APPLICATION/JSON; charset=utf-8" },
        body: '{"name":"Ada","categoryId":3}'
      }
    ],
    ["a chunked body", { headers: json, body: '{"name":"Chunk","categoryId":4}', chunked: true }],
    [
      "200 characters beyond the BMP",
      { headers: json, body: JSON.stringify({ name: "🐈".repeat(200), categoryId: 1 }) }
    ],
    ["the largest categoryId", { headers: json, body: '{"name":"Max","categoryId":9007199254740991}' }],
    ["an exponent that is an integer", { headers: json, body: '{"name":"Exp","categoryId":1e3}' }]
  ]
  for (const [name, request] of creates)
    it(name, () => expectSameAnswers("/v1/pets", { method: "POST", ...request }, withoutCreatedId))

  it("what a baseline creates, the product reads", async () => {
    for (const name of baselines) {
      const created = await send(urlOf(name), "/v1/pets", {
        method: "POST",
        headers: json,
        body: '{"name":"Shared","categoryId":7,"status":"pending"}'
      })
      expect(created.status, name).toBe(201)
      const location = String(created.headers.location)
      const read = await send(urlOf("product"), location, { headers: auth })
      expect(read.status, name).toBe(200)
      expect(JSON.parse(read.text), name).toEqual(JSON.parse(created.text))
    }
  })

  it("an Idempotency-Key reserved by the product is replayed by the baselines, then refused with another body", async () => {
    const idempotent = { ...json, "idempotency-key": `bench-${globalThis.crypto.randomUUID()}` }
    const body = '{"name":"Once","categoryId":3}'
    const first = await send(urlOf("product"), "/v1/pets", { method: "POST", headers: idempotent, body })
    expect(first.status).toBe(201)
    expect(first.headers["idempotent-replayed"]).toBeUndefined()
    const replays = await expectSameAnswers("/v1/pets", { method: "POST", headers: idempotent, body })
    expect(replays.product.status).toBe(201)
    expect(replays.product.headers["idempotent-replayed"]).toBe("true")
    expect(replays.product.body).toEqual(JSON.parse(first.text))
    const reused = await expectSameAnswers("/v1/pets", {
      method: "POST",
      headers: idempotent,
      body: '{"name":"Twice","categoryId":3}'
    })
    expect(reused.product.status).toBe(422)
  })

  it("each server replays its own first answer for its own key", async () => {
    const body = '{"name":"Own","categoryId":8}'
    const tag = globalThis.crypto.randomUUID()
    const answers: Array<Observed> = []
    for (const name of serverNames) {
      const headers = { ...json, "idempotency-key": `own-${tag}-${name}` }
      const first = observe(await send(urlOf(name), "/v1/pets", { method: "POST", headers, body }), {
        headers
      })
      const again = observe(await send(urlOf(name), "/v1/pets", { method: "POST", headers, body }), {
        headers
      })
      expect(again.body, `${name} replays`).toEqual(first.body)
      expect(again.headers["idempotent-replayed"], `${name} says it replays`).toBe("true")
      answers.push(withoutCreatedId(again))
    }
    expect(answers).toHaveLength(serverNames.length)
    for (const [index, answer] of answers.entries())
      expect(answer, `${serverNames[index]} as the product`).toEqual(answers[0])
  })
})

describe("request log lines", () => {
  interface LoggedRequest {
    readonly requestId: unknown
    readonly method: unknown
    readonly path: unknown
    readonly status: unknown
  }

  /** The `request` lines of one server's stdout about this test's requests (pino's or Effect's envelope). */
  const requestLines = (name: ServerName, requestIdPrefix: string) =>
    NodeProcess.logLines(servers[name].stdout()).flatMap((line) => {
      const annotations = line.annotations
      const fields =
        typeof annotations === "object" && annotations !== null && !Array.isArray(annotations)
          ? (annotations as Record<string, unknown>)
          : line
      const message = line.msg ?? line.message
      return message === "request" && String(fields.requestId).startsWith(requestIdPrefix)
        ? [{ fields, durationMs: fields.durationMs }]
        : []
    })

  const logged = (name: ServerName, requestIdPrefix: string): Array<LoggedRequest> =>
    requestLines(name, requestIdPrefix).map(({ fields }) => ({
      requestId: fields.requestId,
      method: fields.method,
      path: fields.path,
      status: fields.status
    }))

  it("Fastify + pino writes one line per answered request with what the product's line carries; the others write nothing", async () => {
    const requests: ReadonlyArray<readonly [string, RequestOptions]> = [
      ["/v1/pets?limit=1&status=sold", { headers: auth }],
      ["/v1/pets/1", {}],
      ["/v1/pets/2", { headers: auth }],
      ["/v1/pets/%zz", { headers: auth }],
      ["/v1/nothing?x=1", { headers: auth }],
      ["/v1/pets", { method: "DELETE", headers: auth }],
      ["/v1/pets", { method: "POST", headers: json, body: '{"name":""}' }],
      ["/v1/pets", { method: "POST", headers: { ...auth, "content-type": "text/plain" }, body: "x" }],
      ["/v1/pets", { method: "POST", headers: json, body: '{"name":"Logged","categoryId":1}' }]
    ]
    const prefix = `log-${globalThis.crypto.randomUUID()}-`
    const expected: Array<LoggedRequest> = []
    for (const [index, [path, request]] of requests.entries()) {
      const requestId = `${prefix}${index}`
      const answers = await askAll(path, {
        ...request,
        headers: { ...request.headers, "x-request-id": requestId }
      })
      for (const name of baselines) expect(answers[name].status, name).toBe(answers.product.status)
      expected.push({
        requestId,
        method: request.method ?? "GET",
        path: path.split("?")[0],
        status: answers.product.status
      })
    }
    expect(new Set(expected.map((line) => line.status)).size).toBeGreaterThan(4)

    // pino writes asynchronously: wait (bounded) for the last line of both loggers.
    for (let waited = 0; waited < 5_000; waited += 50) {
      if (
        requestLines("fastify-pino", prefix).length >= requests.length &&
        requestLines("product", prefix).length >= requests.length
      )
        break
      await new Promise((resolvePromise) => setTimeout(resolvePromise, 50))
    }

    expect(logged("product", prefix), "the product's request lines").toEqual(expected)
    expect(logged("fastify-pino", prefix), "Fastify + pino's request lines").toEqual(expected)
    for (const name of ["product", "fastify-pino"] as const)
      for (const { durationMs } of requestLines(name, prefix))
        expect(durationMs, `${name}: durationMs`).toBeGreaterThanOrEqual(0)
    // Nothing else per request: no "incoming request" / "request completed" pair from Fastify.
    const pinoLinesOfThisTest = NodeProcess.logLines(servers["fastify-pino"].stdout()).filter((line) =>
      JSON.stringify(line).includes(prefix)
    )
    expect(pinoLinesOfThisTest).toHaveLength(requests.length)
    expect(servers.fastify.stdout(), "Fastify without a logger").toBe("")
    expect(servers.raw.stdout(), "node:http").toBe("")
  })
})
