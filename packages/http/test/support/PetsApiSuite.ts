/**
 * Every row of the contract's sections 1 and 2, asserted through a real listening server. Run once
 * per storage adapter.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Fiber, type Layer } from "effect"
import { docsScriptPath } from "../../src/index.js"
import {
  type ErrorBody,
  expectError,
  json,
  jsonPost,
  type Ports,
  TestServer,
  TestServerLive
} from "./TestServer.js"

interface PetBody {
  readonly id: number
  readonly name: string
  readonly categoryId: number
  readonly status: string
}

const createPet = (body: unknown, headers: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const response = yield* server.request("/v1/pets", jsonPost(body, headers))
    return { response, body: (yield* json(response)) as PetBody }
  })

/** Follows `Link rel="next"` from `path` to the last page; the ids of every page, in order. */
const allPages = (path: string, eachPage: (pets: ReadonlyArray<PetBody>) => void = () => {}) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const ids: Array<number> = []
    let next: string | undefined = path
    while (next !== undefined) {
      const response: Response = yield* server.request(next)
      const pets = (yield* json(response)) as ReadonlyArray<PetBody>
      eachPage(pets)
      ids.push(...pets.map((pet) => pet.id))
      next = /<([^>]+)>; rel="next"/.exec(response.headers.get("link") ?? "")?.[1]
    }
    return ids
  })

export const petsApiSuite = <E>(name: string, storage: Layer.Layer<Ports, E>) =>
  layer(TestServerLive(storage), { timeout: 60_000, excludeTestServices: true })(
    `Pets API over ${name}`,
    (it) => {
      describe("authentication is checked first", () => {
        const protectedRequests: ReadonlyArray<readonly [string, string, RequestInit]> = [
          ["listPets", "/v1/pets", {}],
          ["listPets with a bad limit", "/v1/pets?limit=0", {}],
          ["createPet", "/v1/pets", jsonPost({ name: "Rex", categoryId: 1 })],
          ["createPet with malformed JSON", "/v1/pets", jsonPost("{not json")],
          [
            "createPet with a wrong content type",
            "/v1/pets",
            { method: "POST", headers: { "content-type": "text/plain" }, body: "x" }
          ],
          [
            "createPet with a huge body",
            "/v1/pets",
            jsonPost(JSON.stringify({ name: "x".repeat(70_000), categoryId: 1 }))
          ],
          ["getPet", "/v1/pets/1", {}],
          ["getPet with a bad id", "/v1/pets/abc", {}]
        ]
        for (const [label, path, init] of protectedRequests) {
          it.effect(`${label} without a key is 401 with a Bearer challenge`, () =>
            Effect.gen(function* () {
              const server = yield* TestServer
              const response = yield* server.request(path, { ...init, key: null })
              yield* expectError(response, 401, "unauthorized")
              expect(response.headers.get("www-authenticate")).toBe('Bearer realm="petstore"')
            })
          )
          it.effect(`${label} with an unknown key is 401 invalid_token`, () =>
            Effect.gen(function* () {
              const server = yield* TestServer
              const response = yield* server.request(path, { ...init, key: "pk_live_not-a-real-key" })
              yield* expectError(response, 401, "unauthorized")
              expect(response.headers.get("www-authenticate")).toBe(
                'Bearer realm="petstore", error="invalid_token"'
              )
            })
          )
        }

        it.effect("malformed Authorization headers are refused", () =>
          Effect.gen(function* () {
            const server = yield* TestServer
            for (const authorization of [
              `Basic ${server.key}`,
              "Bearer",
              "Bearer ",
              `Bearer ${server.key} extra`,
              server.key
            ]) {
              const response = yield* server.request("/v1/pets", { headers: { authorization } })
              yield* expectError(response, 401, "unauthorized")
            }
          })
        )

        it.effect("the scheme name is case-insensitive", () =>
          Effect.gen(function* () {
            const server = yield* TestServer
            const response = yield* server.request("/v1/pets", {
              headers: { authorization: `bearer ${server.key}` }
            })
            expect(response.status).toBe(200)
          })
        )
      })

      describe("common rules", () => {
        it.effect("responses are JSON in UTF-8 and carry a request id", () =>
          Effect.gen(function* () {
            const server = yield* TestServer
            const generated = yield* server.request("/v1/pets")
            expect(generated.headers.get("content-type")).toBe("application/json; charset=utf-8")
            expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
            const echoed = yield* server.request("/v1/pets", { headers: { "x-request-id": "trace-123" } })
            expect(echoed.headers.get("x-request-id")).toBe("trace-123")
            const unauthorized = yield* server.request("/v1/pets", {
              key: null,
              headers: { "x-request-id": "trace-401" }
            })
            expect(unauthorized.headers.get("x-request-id")).toBe("trace-401")
          })
        )

        it.effect("an unknown route is a 404 error body", () =>
          Effect.gen(function* () {
            const server = yield* TestServer
            yield* expectError(yield* server.request("/v1/nothing-here"), 404, "not_found")
            yield* expectError(yield* server.request("/elsewhere", { key: null }), 404, "not_found")
          })
        )

        it.effect("a known path with another method is a 405 with Allow", () =>
          Effect.gen(function* () {
            const server = yield* TestServer
            const onPets = yield* server.request("/v1/pets", { method: "DELETE" })
            yield* expectError(onPets, 405, "method_not_allowed")
            expect(onPets.headers.get("allow")).toBe("GET, POST")
            const onPet = yield* server.request("/v1/pets/1", { ...jsonPost({}), method: "PUT" })
            yield* expectError(onPet, 405, "method_not_allowed")
            expect(onPet.headers.get("allow")).toBe("GET")
          })
        )

        it.effect("an id segment that cannot be decoded is a 404, not a 405 naming the method it used", () =>
          Effect.gen(function* () {
            const server = yield* TestServer
            const response = yield* server.request("/v1/pets/%zz")
            yield* expectError(response, 404, "not_found")
            expect(response.headers.get("allow")).toBeNull()
          })
        )

        it.effect("a body that is not JSON is a 415", () =>
          Effect.gen(function* () {
            const server = yield* TestServer
            const textPlain = yield* server.request("/v1/pets", {
              method: "POST",
              headers: { "content-type": "text/plain" },
              body: JSON.stringify({ name: "Rex", categoryId: 1 })
            })
            yield* expectError(textPlain, 415, "unsupported_media_type")
            const form = yield* server.request("/v1/pets", {
              method: "POST",
              headers: { "content-type": "application/x-www-form-urlencoded" },
              body: "name=Rex&categoryId=1"
            })
            yield* expectError(form, 415, "unsupported_media_type")
            const mergePatch = yield* server.request("/v1/pets", {
              method: "POST",
              headers: { "content-type": "application/merge-patch+json" },
              body: JSON.stringify({ name: "Rex", categoryId: 1 })
            })
            yield* expectError(mergePatch, 415, "unsupported_media_type")
            const withCharset = yield* server.request("/v1/pets", {
              method: "POST",
              headers: { "content-type": "application/json; charset=utf-8" },
              body: JSON.stringify({ name: "Rex", categoryId: 1 })
            })
            expect(withCharset.status).toBe(201)
          })
        )

        it.effect("a body over 64 KiB is a 413, declared or streamed", () =>
          Effect.gen(function* () {
            const server = yield* TestServer
            const declared = yield* server.request(
              "/v1/pets",
              jsonPost({ name: "x".repeat(70_000), categoryId: 1 })
            )
            yield* expectError(declared, 413, "payload_too_large")
            const chunks = [
              new TextEncoder().encode(`{"name":"${"y".repeat(40_000)}`),
              new TextEncoder().encode(`${"y".repeat(40_000)}","categoryId":1}`)
            ]
            const streamed = yield* server.request("/v1/pets", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: new ReadableStream({
                start(controller) {
                  for (const chunk of chunks) controller.enqueue(chunk)
                  controller.close()
                }
              }),
              duplex: "half"
            } as RequestInit)
            yield* expectError(streamed, 413, "payload_too_large")
            const list = (yield* json(yield* server.request("/v1/pets?limit=100"))) as ReadonlyArray<PetBody>
            expect(list.some((pet) => pet.name.startsWith("xxxx") || pet.name.startsWith("yyyy"))).toBe(false)
          })
        )

        it.effect("malformed JSON and an empty body are 400", () =>
          Effect.gen(function* () {
            const server = yield* TestServer
            const malformed = yield* expectError(
              yield* server.request("/v1/pets", jsonPost('{"name": ')),
              400,
              "invalid_request"
            )
            expect(malformed.message).toBe("body: must be valid JSON")
            yield* expectError(yield* server.request("/v1/pets", jsonPost("")), 400, "invalid_request")
            yield* expectError(yield* server.request("/v1/pets", jsonPost("[]")), 400, "invalid_request")
            yield* expectError(yield* server.request("/v1/pets", jsonPost("null")), 400, "invalid_request")
          })
        )

        it.effect(
          "a body nesting arrays or objects more than 64 levels deep is a 400, whatever its size",
          () =>
            Effect.gen(function* () {
              const server = yield* TestServer
              const nested = (levels: number, inner: string) =>
                `${"[".repeat(levels)}${inner}${"]".repeat(levels)}`
              // 3,000 levels in 6 KB: refused before it is parsed, with the one error body.
              const deep = yield* expectError(
                yield* server.request("/v1/pets", jsonPost(nested(3_000, ""))),
                400,
                "invalid_request"
              )
              expect(deep.message).toBe("body: must not nest arrays and objects more than 64 levels deep")
              // The limit counts every level, objects and arrays alike, wherever they are in the body:
              // here the body's object, then arrays, then an empty object.
              const withExtra = (levels: number) =>
                jsonPost(`{"name":"nested-${levels}","categoryId":1,"extra":${nested(levels - 2, "{}")}}`)
              yield* expectError(yield* server.request("/v1/pets", withExtra(65)), 400, "invalid_request")
              // Deep but malformed: still a clear 400, never a 500.
              yield* expectError(
                yield* server.request("/v1/pets", jsonPost(`{"a":${"[".repeat(30_000)}`)),
                400,
                "invalid_request"
              )
              // 64 levels are allowed (unknown fields are ignored), and brackets inside strings do not count.
              expect((yield* server.request("/v1/pets", withExtra(64))).status).toBe(201)
              const bracketed = `${"[{".repeat(40)}\\"[`
              expect((yield* createPet({ name: bracketed, categoryId: 1 })).body.name).toBe(bracketed)
              const list = (yield* json(
                yield* server.request("/v1/pets?limit=100")
              )) as ReadonlyArray<PetBody>
              expect(list.filter((pet) => pet.name.startsWith("nested-")).map((pet) => pet.name)).toEqual([
                "nested-64"
              ])
            })
        )

        it.effect("the public routes need no key", () =>
          Effect.gen(function* () {
            const server = yield* TestServer
            const openapi = yield* server.request("/v1/openapi.json", { key: null })
            expect(openapi.status).toBe(200)
            const document = (yield* json(openapi)) as {
              openapi: string
              info: { version: string }
              paths: Record<string, Record<string, { deprecated?: boolean }>>
            }
            expect(document.openapi).toBe("3.1.0")
            expect(document.info.version).toBe("1.0.0")
            expect(document.paths["/v1/pets/{petId}"]?.get?.deprecated).toBe(true)
            expect(document.paths["/v1/pets"]?.get?.deprecated).toBeUndefined()
            const docs = yield* server.request("/docs", { key: null })
            expect(docs.status).toBe(200)
            expect(docs.headers.get("content-type")).toMatch(/text\/html/)
            const page = yield* Effect.promise(() => docs.text())
            expect(page).toContain(`<script src="${docsScriptPath}"></script>`)
            const script = yield* server.request(docsScriptPath, { key: null })
            expect(script.status).toBe(200)
            yield* Effect.promise(() => script.arrayBuffer())
            const healthz = yield* server.request("/healthz", { key: null })
            expect(healthz.status).toBe(200)
            const readyz = yield* server.request("/readyz", { key: null })
            expect(readyz.status).toBe(200)
            expect(yield* json(readyz)).toEqual({ status: "ok", checks: { storage: "ok", rateLimits: "ok" } })
          })
        )
      })

      describe("createPet", () => {
        it.effect("creates an animal with a Location, defaulting its status", () =>
          Effect.gen(function* () {
            const { response, body } = yield* createPet({ name: "Rex", categoryId: 7 })
            expect(response.status).toBe(201)
            expect(body).toEqual({ id: body.id, name: "Rex", categoryId: 7, status: "available" })
            expect(Number.isSafeInteger(body.id) && body.id >= 1).toBe(true)
            expect(response.headers.get("location")).toBe(`/v1/pets/${body.id}`)
            const server = yield* TestServer
            const fetched = (yield* json(yield* server.request(`/v1/pets/${body.id}`))) as PetBody
            expect(fetched).toEqual(body)
          })
        )

        it.effect("stores names exactly and keeps the largest safe category id", () =>
          Effect.gen(function* () {
            for (const name of [" Rex ", "Ünïcødé 名前 🐕", "a".repeat(200), "🐈".repeat(200)]) {
              const { response, body } = yield* createPet({
                name,
                categoryId: 9007199254740991,
                status: "sold"
              })
              expect(response.status).toBe(201)
              expect(body.name).toBe(name)
              expect(body.categoryId).toBe(9007199254740991)
              expect(body.status).toBe("sold")
            }
          })
        )

        it.effect("ignores and does not store unknown fields", () =>
          Effect.gen(function* () {
            const { response, body } = yield* createPet({
              name: "Tom",
              categoryId: 2,
              colour: "black",
              id: 5
            })
            expect(response.status).toBe(201)
            expect(Object.keys(body).sort()).toEqual(["categoryId", "id", "name", "status"])
            expect(body.id).not.toBe(5)
          })
        )

        const invalidBodies: ReadonlyArray<readonly [string, string, string]> = [
          [
            "categoryId above 2^53-1",
            '{"name":"Rex","categoryId":9007199254740993}',
            "categoryId: must be an integer from 1 to 9007199254740991"
          ],
          [
            "categoryId 1.5",
            '{"name":"Rex","categoryId":1.5}',
            "categoryId: must be an integer from 1 to 9007199254740991"
          ],
          [
            "categoryId as a string",
            '{"name":"Rex","categoryId":"5"}',
            "categoryId: must be an integer from 1 to 9007199254740991"
          ],
          [
            "categoryId 0",
            '{"name":"Rex","categoryId":0}',
            "categoryId: must be an integer from 1 to 9007199254740991"
          ],
          ["categoryId missing", '{"name":"Rex"}', "categoryId: is required"],
          ["name missing", '{"categoryId":1}', "name: is required"],
          ["name empty", '{"name":"","categoryId":1}', "name: must be 1 to 200 characters"],
          ["name blank", '{"name":"   ","categoryId":1}', "name: must not be blank"],
          [
            "name of 201 characters",
            JSON.stringify({ name: "a".repeat(201), categoryId: 1 }),
            "name: must be 1 to 200 characters"
          ],
          [
            "name with a control character",
            '{"name":"Re\\u0000x","categoryId":1}',
            "name: must not contain control characters"
          ],
          ["name not a string", '{"name":42,"categoryId":1}', "name: must be a string"],
          [
            "status unknown",
            '{"name":"Rex","categoryId":1,"status":"lost"}',
            "status: must be one of available, pending, sold"
          ]
        ]
        for (const [label, body, message] of invalidBodies) {
          it.effect(`refuses ${label} with a 400 naming the field`, () =>
            Effect.gen(function* () {
              const server = yield* TestServer
              const error = yield* expectError(
                yield* server.request("/v1/pets", jsonPost(body)),
                400,
                "invalid_request"
              )
              expect(error.message).toBe(message)
            })
          )
        }

        it.effect("200 concurrent creates get unique ids and are all listed", () =>
          Effect.gen(function* () {
            const created = yield* Effect.forEach(
              Array.from({ length: 200 }, (_, i) => i),
              (i) => createPet({ name: `concurrent-${i}`, categoryId: 3, status: "pending" }),
              { concurrency: 50 }
            )
            expect(created.every(({ response }) => response.status === 201)).toBe(true)
            const ids = new Set(created.map(({ body }) => body.id))
            expect(ids.size).toBe(200)
            const seen = new Set(yield* allPages("/v1/pets?status=pending&limit=100"))
            for (const id of ids) expect(seen.has(id)).toBe(true)
          })
        )
      })

      describe("Idempotency-Key", () => {
        it.effect("replays the original answer for the same key and body, creating nothing new", () =>
          Effect.gen(function* () {
            const key = `idem-${Math.random()}`
            const first = yield* createPet({ name: "Once", categoryId: 4 }, { "idempotency-key": key })
            const second = yield* createPet({ name: "Once", categoryId: 4 }, { "idempotency-key": key })
            expect(first.response.status).toBe(201)
            expect(second.response.status).toBe(201)
            expect(second.body).toEqual(first.body)
            expect(second.response.headers.get("location")).toBe(`/v1/pets/${first.body.id}`)
            expect(second.response.headers.get("idempotent-replayed")).toBe("true")
            const server = yield* TestServer
            const all = (yield* json(
              yield* server.request("/v1/pets?limit=100&status=available")
            )) as ReadonlyArray<PetBody>
            expect(all.filter((pet) => pet.name === "Once").length).toBeLessThanOrEqual(1)
          })
        )

        it.effect("refuses the same key with another body (422)", () =>
          Effect.gen(function* () {
            const key = `idem-${Math.random()}`
            yield* createPet({ name: "First", categoryId: 4 }, { "idempotency-key": key })
            const server = yield* TestServer
            const response = yield* server.request(
              "/v1/pets",
              jsonPost({ name: "Second", categoryId: 4 }, { "idempotency-key": key })
            )
            yield* expectError(response, 422, "idempotency_key_reused")
          })
        )

        it.effect("scopes keys to the account", () =>
          Effect.gen(function* () {
            const key = `idem-${Math.random()}`
            const server = yield* TestServer
            const mine = yield* createPet({ name: "Shared", categoryId: 4 }, { "idempotency-key": key })
            const theirsResponse = yield* server.request("/v1/pets", {
              ...jsonPost({ name: "Shared", categoryId: 4 }, { "idempotency-key": key }),
              key: server.otherKey
            })
            const theirs = (yield* json(theirsResponse)) as PetBody
            expect(theirsResponse.status).toBe(201)
            expect(theirs.id).not.toBe(mine.body.id)
          })
        )

        it.effect(
          "concurrent retries create exactly one animal; the others replay it or are told it is in flight",
          () =>
            Effect.gen(function* () {
              const key = `idem-${Math.random()}`
              const name = `race-${key}`
              const results = yield* Effect.forEach(
                Array.from({ length: 20 }),
                () => createPet({ name, categoryId: 4 }, { "idempotency-key": key }),
                { concurrency: 20 }
              )
              const created = results.filter(({ response }) => response.status === 201)
              const conflicts = results.filter(({ response }) => response.status === 409)
              expect(created.length + conflicts.length).toBe(20)
              expect(new Set(created.map(({ body }) => body.id)).size).toBe(1)
              for (const conflict of conflicts)
                expect((conflict.body as unknown as ErrorBody).code).toBe("conflict")
            })
        )

        it.effect("refuses a malformed key", () =>
          Effect.gen(function* () {
            const server = yield* TestServer
            const response = yield* server.request(
              "/v1/pets",
              jsonPost({ name: "Rex", categoryId: 1 }, { "idempotency-key": "x".repeat(256) })
            )
            const error = yield* expectError(response, 400, "invalid_request")
            expect(error.message).toMatch(/^idempotency-key: /)
          })
        )
      })

      describe("listPets", () => {
        it.effect("lists in ascending id order, 20 by default", () =>
          Effect.gen(function* () {
            for (let i = 0; i < 25; i++) yield* createPet({ name: `order-${i}`, categoryId: 1 })
            const server = yield* TestServer
            const response = yield* server.request("/v1/pets")
            const pets = (yield* json(response)) as ReadonlyArray<PetBody>
            expect(response.status).toBe(200)
            expect(pets.length).toBe(20)
            expect(pets.map((pet) => pet.id)).toEqual([...pets.map((pet) => pet.id)].sort((a, b) => a - b))
            expect(response.headers.get("link")).toBe(`</v1/pets?limit=20&after=${pets[19]?.id}>; rel="next"`)
          })
        )

        for (const limit of ["0", "101", "abc", "1.5", "-1", "", "1e2", "01"]) {
          it.effect(`refuses limit=${limit}`, () =>
            Effect.gen(function* () {
              const server = yield* TestServer
              const error = yield* expectError(
                yield* server.request(`/v1/pets?limit=${limit}`),
                400,
                "invalid_request"
              )
              expect(error.message).toBe("limit: must be an integer from 1 to 100")
            })
          )
        }

        it.effect("refuses a repeated limit, an unknown status and a bad cursor", () =>
          Effect.gen(function* () {
            const server = yield* TestServer
            const repeated = yield* expectError(
              yield* server.request("/v1/pets?limit=5&limit=6"),
              400,
              "invalid_request"
            )
            expect(repeated.message).toBe("limit: must be an integer from 1 to 100")
            const status = yield* expectError(
              yield* server.request("/v1/pets?status=lost"),
              400,
              "invalid_request"
            )
            expect(status.message).toBe("status: must be one of available, pending, sold")
            const after = yield* expectError(
              yield* server.request("/v1/pets?after=abc"),
              400,
              "invalid_request"
            )
            expect(after.message).toBe("after: must be an integer from 1 to 9007199254740991")
          })
        )

        it.effect("accepts the bounds and ignores unknown parameters", () =>
          Effect.gen(function* () {
            const server = yield* TestServer
            const one = (yield* json(
              yield* server.request("/v1/pets?limit=1&colour=black")
            )) as ReadonlyArray<PetBody>
            expect(one.length).toBe(1)
            const hundred = yield* server.request("/v1/pets?limit=100")
            expect(hundred.status).toBe(200)
          })
        )

        it.effect("filters by status and keeps the filter in the next link", () =>
          Effect.gen(function* () {
            for (let i = 0; i < 3; i++) yield* createPet({ name: `sold-${i}`, categoryId: 1, status: "sold" })
            const server = yield* TestServer
            const response = yield* server.request("/v1/pets?status=sold&limit=2")
            const pets = (yield* json(response)) as ReadonlyArray<PetBody>
            expect(pets.length).toBe(2)
            expect(pets.every((pet) => pet.status === "sold")).toBe(true)
            expect(response.headers.get("link")).toBe(
              `</v1/pets?limit=2&status=sold&after=${pets[1]?.id}>; rel="next"`
            )
          })
        )

        it.effect("pages through everything with no duplicate and no gap while animals are added", () =>
          Effect.gen(function* () {
            const before = yield* allPages("/v1/pets?limit=100")
            // Animals keep being added, four at a time, for as long as the paging runs.
            const inserting = yield* Effect.forkScoped(
              Effect.forever(
                Effect.forEach(
                  Array.from({ length: 4 }),
                  () => createPet({ name: "during-paging", categoryId: 9 }),
                  {
                    concurrency: 4
                  }
                )
              )
            )
            const seen = yield* allPages("/v1/pets?limit=7", (pets) =>
              expect(pets.length).toBeLessThanOrEqual(7)
            )
            yield* Fiber.interrupt(inserting)
            expect(new Set(seen).size).toBe(seen.length)
            expect(seen).toEqual([...seen].sort((a, b) => a - b))
            for (const id of before) expect(seen).toContain(id)
          })
        )
      })

      describe("getPet (deprecated)", () => {
        const deprecationHeaders = (response: Response) => {
          expect(response.headers.get("deprecation")).toBe("@1795564800")
          expect(response.headers.get("sunset")).toBe("Thu, 05 Dec 2030 00:00:00 GMT")
          expect(response.headers.get("link")).toBe('</v1/pets>; rel="successor-version"')
        }

        it.effect("answers the animal with the deprecation headers", () =>
          Effect.gen(function* () {
            const { body } = yield* createPet({ name: "Old", categoryId: 1 })
            const server = yield* TestServer
            const response = yield* server.request(`/v1/pets/${body.id}`)
            expect(response.status).toBe(200)
            expect(yield* json(response)).toEqual(body)
            deprecationHeaders(response)
          })
        )

        it.effect("a 401 and a 404 carry the deprecation headers too", () =>
          Effect.gen(function* () {
            const server = yield* TestServer
            const unauthorized = yield* server.request("/v1/pets/1", { key: null })
            yield* expectError(unauthorized, 401, "unauthorized")
            deprecationHeaders(unauthorized)
            const missing = yield* server.request("/v1/pets/9007199254740991")
            yield* expectError(missing, 404, "not_found")
            deprecationHeaders(missing)
          })
        )

        for (const petId of [
          "abc",
          "0",
          "-1",
          "1.5",
          "9007199254740992",
          "99999999999999999999",
          "1e3",
          "%20"
        ]) {
          it.effect(`petId ${petId} is a 404`, () =>
            Effect.gen(function* () {
              const server = yield* TestServer
              yield* expectError(yield* server.request(`/v1/pets/${petId}`), 404, "not_found")
            })
          )
        }
      })
    }
  )
