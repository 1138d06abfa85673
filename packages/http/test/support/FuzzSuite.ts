/**
 * Fuzzing through a real listening server: requests generated from the API's own schemas (each
 * endpoint's path, query and body schemas, through `effect`'s `Arbitrary`), then mutated (wrong types,
 * missing and extra fields, huge and odd Unicode strings, bad JSON, odd headers, paths and query
 * strings). Whatever arrives: never a 5xx, every error is `{code, message, status}` with `status` equal
 * to the HTTP status and nothing internal in it, and every 2xx body matches the OpenAPI document the
 * server publishes. Run once per storage adapter.
 *
 * Every request is generated before the first one is sent. Generating ten thousand takes seconds of
 * synchronous work on the event loop the in-process server and `fetch` share; done between requests,
 * it outlasted the server's 5 s keep-alive timeout on a busy machine, and the server closed the idle
 * connection just as `fetch` reused it (ECONNRESET). Nothing is kept alive while they are generated.
 */
import { describe, expect, layer } from "@effect/vitest"
import { PetstoreApi } from "@petstore/api"
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"
import { Arbitrary, Effect, Layer, Option, References, Schema } from "effect"
import * as HttpApi from "effect/http-api/HttpApi"
import fc from "fast-check"
import { json, jsonPost, type Ports, TestServer, TestServerLive } from "./TestServer.js"

/** How many requests one run sends. */
export const fuzzRequests = 10_000

/** How many valid values of each schema the requests are made from (then mutated). */
const valuesPerSchema = 400

/** An endpoint's schema as this suite uses it: values in, wire values out. */
type AnySchema = Schema.Codec<unknown, unknown>

/** Reflection types an endpoint's schemas loosely; the API's need no services to encode or decode. */
const anySchema = (schema: Schema.Top | undefined): Option.Option<AnySchema> =>
  Option.map(Option.fromUndefinedOr(schema), (value) => value as unknown as AnySchema)

interface Operation {
  readonly method: string
  /** `/v1/pets/:petId` */
  readonly template: string
  readonly path: Option.Option<AnySchema>
  readonly query: Option.Option<AnySchema>
  readonly payload: Option.Option<AnySchema>
}

const operations: ReadonlyArray<Operation> = (() => {
  const found: Array<Operation> = []
  HttpApi.reflect(PetstoreApi, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint }) => {
      found.push({
        method: endpoint.method,
        template: endpoint.path,
        path: anySchema(endpoint.params),
        query: anySchema(endpoint.query),
        payload: anySchema(endpoint.payload.get("application/json")?.schemas[0])
      })
    }
  })
  return found
})()

/** Valid wire values of each schema: values of its type, encoded as a client would send them. */
type WireValues = ReadonlyMap<AnySchema, ReadonlyArray<unknown>>

const wireValuesOf = (schema: AnySchema, seed: number) =>
  Effect.map(Arbitrary.sampleEffect(Arbitrary.schema(schema), { count: valuesPerSchema, seed }), (values) =>
    values.map((value) => Schema.encodeSync(schema)(value))
  )

const allWireValues: Effect.Effect<WireValues, Arbitrary.SampleError> = Effect.map(
  Effect.forEach(
    operations.flatMap((operation) =>
      [operation.path, operation.query, operation.payload].flatMap((schema) => Option.toArray(schema))
    ),
    (schema, index) =>
      Effect.map(wireValuesOf(schema, 20261126 + index), (values) => [schema, values] as const)
  ),
  (entries) => new Map(entries)
)

/** Wire values of `schema`, drawn from those generated for it. */
const encodedValues = (wire: WireValues, schema: AnySchema): fc.Arbitrary<unknown> => {
  const values = wire.get(schema) ?? []
  return values.length === 0 ? fc.constant(undefined) : fc.constantFrom(...values)
}

const oddStrings: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.fullUnicodeString({ maxLength: 40 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "\ud800",
    "\udfff\ud800",
    "💥".repeat(300),
    "Ω≈ç√∫˜µ≤≥÷",
    "'; drop table pets; --",
    "$" + "{jndi:ldap://x}",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "%00",
    "1e309",
    "-0",
    "9007199254740993"
  ),
  fc.integer({ min: 1, max: 4 }).map((n) => "x".repeat(10 ** n * 7))
)

const oddValues: fc.Arbitrary<unknown> = fc.oneof(
  oddStrings,
  fc.double(),
  fc.integer(),
  fc.constantFrom(null, true, false, 0, -1, 2 ** 53, Number.MAX_VALUE, [], {}),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 })
)

/** A record with one field mutated: a wrong value, the field removed, or a field added. */
const mutateRecord = (record: unknown): fc.Arbitrary<unknown> => {
  if (typeof record !== "object" || record === null || Array.isArray(record)) return oddValues
  const fields = Object.keys(record)
  const mutations: Array<fc.Arbitrary<unknown>> = [
    fc.tuple(fc.string({ minLength: 1, maxLength: 20 }), oddValues).map(([name, value]) => ({
      ...record,
      [name]: value
    })),
    oddValues
  ]
  if (fields.length > 0) {
    mutations.push(
      fc.tuple(fc.constantFrom(...fields), oddValues).map(([name, value]) => ({ ...record, [name]: value })),
      fc.constantFrom(...fields).map((name) => {
        const { [name]: _removed, ...rest } = record as Record<string, unknown>
        return rest
      })
    )
  }
  return fc.oneof(...mutations)
}

const maybeMutated = (value: unknown): fc.Arbitrary<unknown> =>
  fc.oneof({ arbitrary: fc.constant(value), weight: 2 }, { arbitrary: mutateRecord(value), weight: 3 })

/** Percent-encodes any text; a lone surrogate, which UTF-8 cannot carry, goes as U+FFFD. */
const encodeSegment = (text: string): string =>
  encodeURIComponent(
    text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")
  )

const fill = (template: string, path: unknown): string =>
  template.replace(/:(\w+)/g, (_match, name: string) => {
    const value =
      typeof path === "object" && path !== null ? (path as Record<string, unknown>)[name] : undefined
    return encodeSegment(String(value ?? name))
  })

const queryString = (query: unknown): string => {
  if (typeof query !== "object" || query === null || Array.isArray(query))
    return `?${encodeSegment(String(query))}`
  const parameters = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue
    for (const item of Array.isArray(value) ? value : [value]) parameters.append(name, String(item))
  }
  const text = parameters.toString()
  return text === "" ? "" : `?${text}`
}

export interface FuzzRequest {
  readonly operation: Operation | undefined
  readonly method: string
  readonly path: string
  readonly headers: Record<string, string>
  readonly body: string | undefined
}

const contentTypes = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=latin1",
  "application/problem+json",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "",
  "application/json, text/plain",
  "*/*"
)

const oddHeaders: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    accept: fc.constantFrom("application/json", "text/html", "*/*", "application/xml", ""),
    "idempotency-key": fc.oneof(
      fc.uuid(),
      fc.string({ maxLength: 300 }).map((text) => text.replace(/[^\x20-\x7e]/g, "x"))
    ),
    "x-request-id": fc.string({ maxLength: 200 }).map((text) => text.replace(/[^\x20-\x7e]/g, "-")),
    "x-http-method-override": fc.constantFrom("DELETE", "PUT"),
    "content-encoding": fc.constantFrom("gzip", "identity", "br")
  },
  { requiredKeys: [] }
)

const badJson = fc.constantFrom(
  "{",
  '{"name":',
  "[1,2",
  '{"name":"Rex",}',
  "NaN",
  "undefined",
  "'single'",
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"x":1}}}',
  "\u0000",
  '{"a":1}{"b":2}',
  "[".repeat(5000),
  '"\\ud800"'
)

const requestFor = (operation: Operation, key: string, wire: WireValues): fc.Arbitrary<FuzzRequest> =>
  fc
    .record({
      path: Option.match(operation.path, {
        onNone: () => fc.constant<unknown>({}),
        onSome: (schema) =>
          fc.oneof(
            encodedValues(wire, schema),
            fc.record({ petId: oddStrings, projectId: oddStrings, hostname: oddStrings, apex: oddStrings })
          )
      }),
      query: Option.match(operation.query, {
        onNone: () =>
          fc.oneof(fc.constant<unknown>({}), fc.dictionary(oddStrings, oddStrings, { maxKeys: 2 })),
        onSome: (schema) => encodedValues(wire, schema).chain(maybeMutated)
      }),
      body: Option.match(operation.payload, {
        onNone: () => fc.constant<string | undefined>(undefined),
        onSome: (schema) =>
          fc.oneof(
            {
              arbitrary: encodedValues(wire, schema)
                .chain(maybeMutated)
                .map((value) => JSON.stringify(value) ?? "null"),
              weight: 6
            },
            { arbitrary: badJson, weight: 2 },
            { arbitrary: fc.constant<string | undefined>(undefined), weight: 1 }
          )
      }),
      contentType: contentTypes,
      authorization: fc.oneof(
        { arbitrary: fc.constant(`Bearer ${key}`), weight: 8 },
        {
          arbitrary: fc.constantFrom(
            "",
            "Bearer",
            "Basic dXNlcjpwYXNz",
            `bearer  ${key}`,
            `Bearer ${key}x`,
            `Bearer ${"k".repeat(600)}`
          ),
          weight: 2
        }
      ),
      extra: oddHeaders
    })
    .map(({ authorization, body, contentType, extra, path, query }) => ({
      // An empty path parameter makes another route's path (`/v1/pets/` is the list), and so does one
      // that is a dot segment, which the URL drops (`/v1/claims/.` is `/v1/claims/`): no longer this operation.
      operation: /\/\/|\/$|\/\.{1,2}(?:\/|$)/.test(fill(operation.template, path)) ? undefined : operation,
      method: operation.method,
      path: fill(operation.template, path) + queryString(query),
      headers: {
        ...extra,
        ...(authorization === "" ? {} : { authorization }),
        ...(body === undefined || contentType === "" ? {} : { "content-type": contentType })
      },
      body
    }))

/** Requests outside the documented operations: unknown paths, odd methods and odd encodings. */
const strayRequest = (key: string): fc.Arbitrary<FuzzRequest> =>
  fc
    .record({
      method: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "PROPFIND"),
      path: fc.oneof(
        fc.constantFrom(
          "/",
          "/v1",
          "/v1/",
          "/v1/pets/",
          "/v1//pets",
          "/v1/pets/%ZZ",
          "/v1/pets/%00",
          "/v1/pets/%ED%A0%80",
          "/v1/projects/%C0%AF/domains",
          "/v1/pets/1/2",
          "/v1/pets/..%2f..%2fetc",
          "/V1/PETS",
          "/v2/pets",
          "/v1/pets?limit=20&limit=30",
          "/v1/pets?limit=%FF",
          "/v1/pets?after=-1",
          "/v1/pets?status=available&status=sold",
          "/v1/projects/%2e%2e/domains",
          "/v1/claims/%2e%2e",
          "/v1/claims/example.com/verify/..",
          `/v1/pets/${"9".repeat(400)}`,
          `/v1/${"a/".repeat(200)}`
        ),
        fc.webPath(),
        fc
          .array(oddStrings, { minLength: 1, maxLength: 4 })
          .map((segments) => `/v1/${segments.map(encodeSegment).join("/")}`)
      ),
      body: fc.option(fc.oneof(badJson, fc.json()), { nil: undefined }),
      contentType: contentTypes
    })
    .map(({ body, contentType, method, path }) => ({
      operation: undefined,
      method,
      path: path.startsWith("/") ? path : `/${path}`,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined || contentType === "" ? {} : { "content-type": contentType })
      },
      body: method === "GET" || method === "HEAD" ? undefined : body
    }))

/**
 * `count` requests, reproducibly from `seed`: four in five made for the documented operations (those
 * `only` keeps), one in five stray. `key` is the bearer key they send when they send a valid one.
 */
export const generateRequests = (options: {
  readonly key: string
  readonly count: number
  readonly seed?: number
  readonly only?: (operation: { readonly method: string; readonly template: string }) => boolean
}): Effect.Effect<ReadonlyArray<FuzzRequest>, Arbitrary.SampleError> =>
  Effect.map(allWireValues, (wire) => {
    const chosen = operations.filter((operation) => options.only?.(operation) ?? true)
    const requests = fc.oneof(
      {
        arbitrary: fc.constantFrom(...chosen).chain((operation) => requestFor(operation, options.key, wire)),
        weight: 4
      },
      { arbitrary: strayRequest(options.key), weight: 1 }
    )
    return fc.sample(requests, { numRuns: options.count, seed: options.seed ?? 20261126 })
  })

/**
 * What must never reach a client: stack frames, file paths, SQL, internal error names. Messages
 * quote the client's own input (`no project "…"`, `no resource at <path>`): that is not looked at.
 */
const internalDetail =
  /\bat \S+ \(|:\d+:\d+\)|node_modules|\/(?:work|home|usr|tmp|app)\/|\b(?:select|insert|update|delete) .* (?:from|into|set)\b|relation |violates|SqlError|ParseError|TypeError|RangeError|ReferenceError|FiberFailure|\bpg\b|postgres/i

const leaksInternalDetail = (message: string, path: string): boolean =>
  internalDetail.test(
    message
      .split(path.split("?")[0] ?? path)
      .join("")
      .replace(/"(?:[^"\\]|\\.)*"/g, '""')
  )

interface OpenApiDocument {
  readonly paths: Record<
    string,
    Record<
      string,
      {
        readonly responses: Record<string, { readonly content?: Record<string, { readonly schema: object }> }>
      }
    >
  >
  readonly components: Record<string, unknown>
}

export const fuzzSuite = <E>(name: string, storage: Layer.Layer<Ports, E>) =>
  // Ten thousand request lines would drown the test output: only warnings and errors are logged.
  layer(TestServerLive(storage).pipe(Layer.provide(Layer.succeed(References.MinimumLogLevel, "Warn"))), {
    excludeTestServices: true
  })(`fuzzing over ${name}`, (it) => {
    describe("requests generated from the schemas, then mutated", () => {
      it.effect(
        `${fuzzRequests} requests: no 5xx, every error well-formed and discreet, every 2xx as documented`,
        () =>
          Effect.gen(function* () {
            const server = yield* TestServer
            // All of them before the first request: nothing is kept alive while they are generated.
            const samples = yield* generateRequests({ key: server.key, count: fuzzRequests })

            const document = (yield* json(
              yield* server.request("/v1/openapi.json", { key: null })
            )) as OpenApiDocument
            const ajv = new Ajv2020({ strict: false, allErrors: true })
            const validators = new Map<string, ValidateFunction>()
            const validatorFor = (template: string, method: string, status: number) => {
              const openApiPath = template.replace(/:(\w+)/g, "{$1}")
              const id = `${method} ${openApiPath} ${status}`
              const cached = validators.get(id)
              if (cached !== undefined) return cached
              const schema =
                document.paths[openApiPath]?.[method.toLowerCase()]?.responses[String(status)]?.content?.[
                  "application/json"
                ]?.schema
              expect(schema, `${id} is documented`).toBeDefined()
              const validator = ajv.compile({ ...schema, components: document.components })
              validators.set(id, validator)
              return validator
            }

            // Something for the generated requests to find: a paid, deployed project of this account,
            // and a claim (listed in every answer of the list).
            yield* server.request("/v1/projects", jsonPost({ id: "handbook", plan: "pro" }))
            yield* server.request("/v1/projects/handbook/deploys", jsonPost({ status: "succeeded" }))
            yield* server.request("/v1/claims", jsonPost({ apex: "example.com" }))

            const statuses = new Map<number, number>()
            const failures: Array<string> = []
            for (const request of samples) {
              const response = yield* server.request(request.path, {
                key: null,
                method: request.method,
                headers: request.headers,
                ...(request.body === undefined ? {} : { body: request.body })
              })
              statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
              const text = yield* Effect.promise(() => response.text())
              const describeRequest = () =>
                `${request.method} ${request.path.slice(0, 200)} ${JSON.stringify(request.headers).slice(0, 300)} ${String(request.body).slice(0, 200)} → ${response.status} ${text.slice(0, 300)}`
              if (response.status >= 500) {
                failures.push(`5xx: ${describeRequest()}`)
                continue
              }
              if (request.method === "HEAD" || response.status === 204 || response.status === 301) continue
              const body: unknown = yield* Effect.try(() => JSON.parse(text) as unknown).pipe(
                Effect.orElseSucceed(() => undefined)
              )
              if (response.status >= 400) {
                const error = body as Record<string, unknown> | undefined
                const wellFormed =
                  typeof error === "object" &&
                  error !== null &&
                  Object.keys(error).sort().join(",") === "code,message,status" &&
                  typeof error.code === "string" &&
                  typeof error.message === "string" &&
                  error.status === response.status &&
                  (response.headers.get("content-type") ?? "").startsWith("application/json")
                if (!wellFormed) failures.push(`malformed error: ${describeRequest()}`)
                else if (leaksInternalDetail(String(error.message), request.path))
                  failures.push(`leak: ${describeRequest()}`)
                continue
              }
              if (request.operation === undefined) continue
              if (request.operation.template === "/docs") continue
              const validate = validatorFor(request.operation.template, request.method, response.status)
              if (!validate(body))
                failures.push(
                  `undocumented 2xx body (${ajv.errorsText(validate.errors)}): ${describeRequest()}`
                )
              // A created animal is exactly what was sent: nothing altered on its way to storage.
              if (
                response.status === 201 &&
                request.operation.template === "/v1/pets" &&
                request.body !== undefined
              ) {
                const sent = JSON.parse(request.body) as {
                  readonly name: unknown
                  readonly categoryId: unknown
                }
                const created = body as { readonly name: unknown; readonly categoryId: unknown }
                if (created.name !== sent.name || created.categoryId !== sent.categoryId)
                  failures.push(`altered on creation: ${describeRequest()}`)
              }
            }
            expect(failures.slice(0, 20)).toEqual([])
            // The generation reached the handlers, not only the validation in front of them.
            const successes = [...statuses]
              .filter(([status]) => status < 300)
              .reduce((sum, [, count]) => sum + count, 0)
            expect(successes, JSON.stringify([...statuses])).toBeGreaterThan(fuzzRequests / 20)
            expect(statuses.get(400) ?? 0).toBeGreaterThan(fuzzRequests / 20)
          }),
        120_000
      )
    })
  })
