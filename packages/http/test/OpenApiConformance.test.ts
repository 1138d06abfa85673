/**
 * Every operation's answers, for each status it documents, validated against the OpenAPI document the
 * server itself publishes (JSON Schema 2020-12, as OpenAPI 3.1 uses).
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { describe, expect, layer } from "@effect/vitest"
import { MemoryStore } from "@petstore/store-memory"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Effect } from "effect"
import { json, jsonPost, makeTxtDns, TestServer, TestServerLive } from "./support/TestServer.js"

interface OpenApiDocument {
  readonly paths: Record<
    string,
    Record<string, { readonly operationId: string; readonly responses: Record<string, ResponseObject> }>
  >
  readonly components: Record<string, unknown>
}
interface ResponseObject {
  readonly content?: Record<string, { readonly schema: object }>
  readonly headers?: Record<string, unknown>
}

const dns = makeTxtDns()

/** The contract's committed document (`@petstore/api`'s `openapi.json`). */
const committedDocument: unknown = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve("@petstore/api/openapi.json"), "utf8")
)

layer(TestServerLive(MemoryStore.layer, { dns: dns.layer }), { excludeTestServices: true })(
  "responses conform to the published OpenAPI document",
  (it) => {
    const validate = (
      document: OpenApiDocument,
      path: string,
      method: string,
      response: Response,
      body: unknown
    ) => {
      const operation = document.paths[path]?.[method]
      expect(operation, `${method} ${path} is documented`).toBeDefined()
      const documented = operation?.responses[String(response.status)]
      expect(documented, `${method} ${path} documents ${response.status}`).toBeDefined()
      const schema = documented?.content?.["application/json"]?.schema
      expect(schema, `${method} ${path} ${response.status} has a JSON schema`).toBeDefined()
      const ajv = new Ajv2020({ strict: false, allErrors: true })
      const check = ajv.compile({ ...schema, components: document.components })
      const valid = check(body)
      expect(valid, `${method} ${path} ${response.status}: ${JSON.stringify(check.errors)}`).toBe(true)
      for (const name of Object.keys(documented?.headers ?? {})) {
        if (["X-Request-Id", "Deprecation", "Sunset", "Location"].includes(name)) {
          expect(
            response.headers.get(name),
            `${method} ${path} ${response.status} sends ${name}`
          ).not.toBeNull()
        }
      }
    }

    describe("each operation and status", () => {
      it.effect("listPets, createPet and getPet", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const document = (yield* json(
            yield* server.request("/v1/openapi.json", { key: null })
          )) as OpenApiDocument
          const cases: ReadonlyArray<
            readonly [string, string, string, RequestInit & { key?: string | null }]
          > = [
            ["/v1/pets", "post", "/v1/pets", jsonPost({ name: "Doc", categoryId: 1 })],
            ["/v1/pets", "post", "/v1/pets", jsonPost({ name: "", categoryId: 1 })],
            ["/v1/pets", "post", "/v1/pets", { ...jsonPost({ name: "Doc", categoryId: 1 }), key: null }],
            [
              "/v1/pets",
              "post",
              "/v1/pets",
              { method: "POST", headers: { "content-type": "text/plain" }, body: "x" }
            ],
            ["/v1/pets", "post", "/v1/pets", jsonPost({ name: "x".repeat(70_000), categoryId: 1 })],
            ["/v1/pets", "get", "/v1/pets?limit=1", {}],
            ["/v1/pets", "get", "/v1/pets?limit=0", {}],
            ["/v1/pets", "get", "/v1/pets", { key: null }],
            ["/v1/pets/{petId}", "get", "/v1/pets/1", {}],
            ["/v1/pets/{petId}", "get", "/v1/pets/987654321", {}],
            ["/v1/pets/{petId}", "get", "/v1/pets/1", { key: null }],
            ["/healthz", "get", "/healthz", { key: null }],
            ["/readyz", "get", "/readyz", { key: null }]
          ]
          const statuses = new Map<string, Set<number>>()
          for (const [path, method, url, init] of cases) {
            const response = yield* server.request(url, init)
            validate(document, path, method, response, yield* json(response))
            const seen = statuses.get(`${method} ${path}`) ?? new Set<number>()
            seen.add(response.status)
            statuses.set(`${method} ${path}`, seen)
          }
          expect([...(statuses.get("post /v1/pets") ?? [])].sort()).toEqual([201, 400, 401, 413, 415])
          expect([...(statuses.get("get /v1/pets") ?? [])].sort()).toEqual([200, 400, 401])
          expect([...(statuses.get("get /v1/pets/{petId}") ?? [])].sort()).toEqual([200, 401, 404])
        })
      )

      it.effect("the claims, and a domain's ownership and 409s", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const document = (yield* json(
            yield* server.request("/v1/openapi.json", { key: null })
          )) as OpenApiDocument
          const answer = (
            path: string,
            method: string,
            url: string,
            init: RequestInit & { key?: string | null }
          ) =>
            Effect.gen(function* () {
              const response = yield* server.request(url, init)
              const body = yield* json(response)
              validate(document, path, method, response, body)
              return { status: response.status, body }
            })
          const post = { method: "POST" }
          const claimCases: ReadonlyArray<
            readonly [string, string, string, RequestInit & { key?: string | null }, number]
          > = [
            ["/v1/claims", "post", "/v1/claims", jsonPost({ apex: "conform.com" }), 201],
            ["/v1/claims", "post", "/v1/claims", jsonPost({ apex: "Conform.com" }), 200],
            ["/v1/claims", "post", "/v1/claims", jsonPost({ apex: "docs.conform.com" }), 400],
            ["/v1/claims", "post", "/v1/claims", jsonPost({}), 400],
            ["/v1/claims", "post", "/v1/claims", { ...jsonPost({ apex: "conform.com" }), key: null }, 401],
            [
              "/v1/claims",
              "post",
              "/v1/claims",
              { method: "POST", headers: { "content-type": "text/plain" }, body: "x" },
              415
            ],
            ["/v1/claims", "post", "/v1/claims", jsonPost({ apex: "x".repeat(70_000) }), 413],
            ["/v1/claims", "get", "/v1/claims", {}, 200],
            ["/v1/claims", "get", "/v1/claims", { key: null }, 401],
            ["/v1/claims/{apex}", "get", "/v1/claims/conform.com", {}, 200],
            ["/v1/claims/{apex}", "get", "/v1/claims/unclaimed.com", {}, 404],
            ["/v1/claims/{apex}/verify", "post", "/v1/claims/conform.com/verify", post, 200],
            ["/v1/claims/{apex}/verify", "post", "/v1/claims/unclaimed.com/verify", post, 404],
            ["/v1/claims/{apex}", "delete", "/v1/claims/unclaimed.com", { method: "DELETE" }, 404]
          ]
          for (const [path, method, url, init, status] of claimCases) {
            expect((yield* answer(path, method, url, init)).status, `${method} ${url}`).toBe(status)
          }
          const deleted = yield* server.request("/v1/claims/conform.com", { method: "DELETE" })
          expect(deleted.status).toBe(204)
          expect(document.paths["/v1/claims/{apex}"]?.delete?.responses["204"]).toBeDefined()

          // A domain with its ownership record, and both 409s of adding one.
          const domains = "/v1/projects/{projectId}/domains"
          yield* server.request("/v1/projects", jsonPost({ id: "conform", plan: "pro" }))
          yield* server.request("/v1/projects/conform/deploys", jsonPost({ status: "succeeded" }))
          yield* server.request("/v1/projects", jsonPost({ id: "conform-other", plan: "pro" }))
          yield* server.request("/v1/projects/conform-other/deploys", jsonPost({ status: "succeeded" }))
          const conformDomains = "/v1/projects/conform/domains"
          const added = yield* answer(
            domains,
            "post",
            conformDomains,
            jsonPost({ hostname: "docs.conform.net" })
          )
          expect(added.status).toBe(201)
          expect(added.body).toMatchObject({ ownership: { type: "TXT", required: false } })
          const inUse = yield* answer(
            domains,
            "post",
            "/v1/projects/conform-other/domains",
            jsonPost({ hostname: "docs.conform.net" })
          )
          expect(inUse.body).toMatchObject({ code: "domain_in_use", status: 409 })
          const claim = (yield* json(
            yield* server.request("/v1/claims", {
              ...jsonPost({ apex: "conform.org" }),
              key: server.otherKey
            })
          )) as { readonly txt: { readonly name: string; readonly value: string } }
          yield* dns.setTxt(claim.txt.name, { _tag: "Records", records: [claim.txt.value] })
          const verified = yield* server.request("/v1/claims/conform.org/verify", {
            method: "POST",
            key: server.otherKey
          })
          expect(yield* json(verified)).toMatchObject({ status: "verified" })
          const claimed = yield* answer(
            domains,
            "post",
            conformDomains,
            jsonPost({ hostname: "docs.conform.org" })
          )
          expect(claimed.body).toMatchObject({ code: "domain_claimed", status: 409 })
        })
      )

      it.effect("a project's events", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const document = (yield* json(
            yield* server.request("/v1/openapi.json", { key: null })
          )) as OpenApiDocument
          yield* server.request("/v1/projects", jsonPost({ id: "conform-events", plan: "pro" }))
          yield* server.request("/v1/projects/conform-events/deploys", jsonPost({ status: "succeeded" }))
          for (const hostname of ["a.conform-events.com", "b.conform-events.com"]) {
            yield* server.request("/v1/projects/conform-events/domains", jsonPost({ hostname }))
          }
          const path = "/v1/projects/{projectId}/events"
          const cases: ReadonlyArray<readonly [string, RequestInit & { key?: string | null }, number]> = [
            ["/v1/projects/conform-events/events", {}, 200],
            ["/v1/projects/conform-events/events?limit=1", {}, 200],
            ["/v1/projects/conform-events/events?limit=0", {}, 400],
            ["/v1/projects/conform-events/events?after=x", {}, 400],
            ["/v1/projects/conform-events/events", { key: null }, 401],
            ["/v1/projects/conform-events/events", { key: server.otherKey }, 404],
            ["/v1/projects/unknown/events", {}, 404]
          ]
          for (const [url, init, status] of cases) {
            const response = yield* server.request(url, init)
            const body = yield* json(response)
            validate(document, path, "get", response, body)
            expect(response.status, url).toBe(status)
            if (status === 200) expect((body as ReadonlyArray<unknown>).length, url).toBeGreaterThan(0)
          }
        })
      )

      it.effect("a project's webhooks", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const document = (yield* json(
            yield* server.request("/v1/openapi.json", { key: null })
          )) as OpenApiDocument
          yield* server.request("/v1/projects", jsonPost({ id: "conform-hooks", plan: "pro" }))
          const created = yield* server.request(
            "/v1/projects/conform-hooks/webhooks",
            jsonPost({ url: "https://hooks.conform.org/in", events: ["domain.added"] })
          )
          const webhook = (yield* json(created)) as { readonly id: string }
          validate(document, "/v1/projects/{projectId}/webhooks", "post", created, webhook)
          expect(created.status).toBe(201)
          const one = `/v1/projects/conform-hooks/webhooks/${webhook.id}`
          const cases: ReadonlyArray<
            readonly [string, string, string, RequestInit & { key?: string | null }, number]
          > = [
            [
              "/v1/projects/{projectId}/webhooks",
              "post",
              "/v1/projects/conform-hooks/webhooks",
              jsonPost({ url: "http://x.org/" }),
              400
            ],
            [
              "/v1/projects/{projectId}/webhooks",
              "post",
              "/v1/projects/conform-hooks/webhooks",
              jsonPost("[".repeat(3)),
              400
            ],
            [
              "/v1/projects/{projectId}/webhooks",
              "post",
              "/v1/projects/unknown/webhooks",
              jsonPost({ url: "https://x.org/" }),
              404
            ],
            ["/v1/projects/{projectId}/webhooks", "get", "/v1/projects/conform-hooks/webhooks", {}, 200],
            [
              "/v1/projects/{projectId}/webhooks",
              "get",
              "/v1/projects/conform-hooks/webhooks",
              { key: null },
              401
            ],
            ["/v1/projects/{projectId}/webhooks/{webhookId}", "get", one, {}, 200],
            ["/v1/projects/{projectId}/webhooks/{webhookId}", "get", one, { key: server.otherKey }, 404],
            ["/v1/projects/{projectId}/webhooks/{webhookId}/deliveries", "get", `${one}/deliveries`, {}, 200],
            [
              "/v1/projects/{projectId}/webhooks/{webhookId}/deliveries",
              "get",
              "/v1/projects/conform-hooks/webhooks/wh_x/deliveries",
              {},
              404
            ],
            ["/v1/projects/{projectId}/webhooks/{webhookId}", "delete", one, { key: server.otherKey }, 404]
          ]
          for (const [path, method, url, init, status] of cases) {
            const response = yield* server.request(url, { method: method.toUpperCase(), ...init })
            const body = yield* json(response)
            validate(document, path, method, response, body)
            expect(response.status, `${method} ${url}`).toBe(status)
          }
          const deleted = yield* server.request(one, { method: "DELETE" })
          expect(deleted.status).toBe(204)
          expect(
            document.paths["/v1/projects/{projectId}/webhooks/{webhookId}"]?.delete?.responses
          ).toHaveProperty("204")
        })
      )

      it.effect("the document names no platform-internal schema and marks getPet deprecated", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const text = yield* Effect.promise(() =>
            server
              .request("/v1/openapi.json", { key: null })
              .pipe(Effect.runPromise)
              .then((r) => r.text())
          )
          expect(text).not.toContain("HttpApiDecodeError")
          const document = JSON.parse(text) as OpenApiDocument & {
            paths: Record<string, Record<string, { deprecated?: boolean; security?: unknown }>>
          }
          expect(document.paths["/v1/pets/{petId}"]?.get?.deprecated).toBe(true)
          expect(document.paths["/v1/pets"]?.get?.security).toEqual([{ apiKey: [] }])
        })
      )

      it.effect("the served document is the contract's committed openapi.json", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const served = yield* json(yield* server.request("/v1/openapi.json", { key: null }))
          expect(served).toEqual(committedDocument)
        })
      )
    })
  }
)
