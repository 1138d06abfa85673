/**
 * An account's projects through a real server on the in-memory store (contract sections 3 and 9):
 * listed in ascending id order and paged like `GET /v1/pets`, one read by id, another account's
 * never seen, and creation refused past the account's limit, exactly, however many ask at once.
 */
import { describe, expect, layer } from "@effect/vitest"
import { MemoryStore } from "@petstore/store-memory"
import { Array as Arr, Effect } from "effect"
import { expectError, json, jsonPost, TestServer, TestServerLive } from "./support/TestServer.js"

const projectLimit = 6

const send = (path: string, init: RequestInit = {}, as: "alice" | "bob" = "alice") =>
  Effect.flatMap(TestServer, (server) =>
    server.request(path, { ...init, key: as === "bob" ? server.otherKey : server.key })
  )

const create = (id: string, as: "alice" | "bob" = "alice") =>
  send("/v1/projects", jsonPost({ id, plan: "pro" }), as)

interface ProjectBody {
  readonly id: string
  readonly plan: string
  readonly defaultHostname: string
  readonly lastDeploy: unknown
}

const listPage = (path: string, as: "alice" | "bob" = "alice") =>
  Effect.gen(function* () {
    const response = yield* send(path, {}, as)
    const body = yield* json(response)
    expect(response.status, JSON.stringify(body)).toBe(200)
    return { projects: body as ReadonlyArray<ProjectBody>, link: response.headers.get("link") }
  })

layer(TestServerLive(MemoryStore.layer, { limits: { projectsPerAccount: projectLimit } }), {
  excludeTestServices: true
})("projects", (it) => {
  describe("GET /v1/projects and /v1/projects/{projectId}", () => {
    it.effect("lists only the key's account's projects, in ascending id order, paged with Link", () =>
      Effect.gen(function* () {
        for (const id of ["list-b", "list-a-2", "list-a0", "list-c"])
          expect((yield* create(id)).status).toBe(201)
        expect((yield* create("list-bob", "bob")).status).toBe(201)

        const first = yield* listPage("/v1/projects?limit=3")
        expect(first.projects.map((project) => project.id)).toEqual(["list-a-2", "list-a0", "list-b"])
        expect(first.projects[0]).toEqual({
          id: "list-a-2",
          plan: "pro",
          defaultHostname: "list-a-2.docs-platform.test",
          lastDeploy: null
        })
        expect(first.link).toBe('</v1/projects?limit=3&after=list-b>; rel="next"')
        const second = yield* listPage("/v1/projects?limit=3&after=list-b")
        expect(second.projects.map((project) => project.id)).toEqual(["list-c"])
        expect(second.link).toBeNull()

        const bobs = yield* listPage("/v1/projects", "bob")
        expect(bobs.projects.map((project) => project.id)).toEqual(["list-bob"])
        expect(bobs.link).toBeNull()
      })
    )

    it.effect("reads one project; another account's, or an id that cannot exist, is a 404", () =>
      Effect.gen(function* () {
        expect((yield* create("one-read")).status).toBe(201)
        const response = yield* send("/v1/projects/one-read")
        expect(response.status).toBe(200)
        expect(yield* json(response)).toEqual({
          id: "one-read",
          plan: "pro",
          defaultHostname: "one-read.docs-platform.test",
          lastDeploy: null
        })
        yield* expectError(yield* send("/v1/projects/one-read", {}, "bob"), 404, "not_found")
        yield* expectError(yield* send("/v1/projects/nobody-has-this"), 404, "not_found")
        yield* expectError(yield* send("/v1/projects/Not_A_Slug"), 404, "not_found")
      })
    )

    it.effect.each([
      ["limit=0", "limit: must be an integer from 1 to 100"],
      ["limit=101", "limit: must be an integer from 1 to 100"],
      ["limit=2&limit=3", "limit"],
      ["after=Not_A_Slug", "after: must be a project id"]
    ])("GET /v1/projects?%s is a 400 naming the parameter", ([query, message]) =>
      Effect.gen(function* () {
        const body = yield* expectError(yield* send(`/v1/projects?${query}`), 400, "invalid_request")
        expect(body.message).toContain(message)
      })
    )

    it.effect("needs a key before anything else", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const response = yield* server.request("/v1/projects?limit=0", { key: null })
        yield* expectError(response, 401, "unauthorized")
      })
    )
  })

  describe("the limit of projects per account", () => {
    it.effect(
      "concurrent creations at the limit: exactly the limit is created, the rest 409 limit_reached",
      () =>
        Effect.gen(function* () {
          // Bob's account is used here alone: its one project of the listing test counts too.
          const before = (yield* listPage("/v1/projects?limit=100", "bob")).projects.length
          const responses = yield* Effect.forEach(Arr.range(1, 15), (n) => create(`limit-${n}`, "bob"), {
            concurrency: "unbounded"
          })
          const created = responses.filter((response) => response.status === 201)
          expect(created).toHaveLength(projectLimit - before)
          for (const response of responses.filter((response) => response.status !== 201)) {
            const body = yield* expectError(response, 409, "limit_reached")
            expect(body.message).toBe(`limit reached: at most ${projectLimit} projects per account`)
          }
          const after = yield* listPage("/v1/projects?limit=100", "bob")
          expect(after.projects).toHaveLength(projectLimit)
          // Past it, any new id is refused; another account's projects are counted apart.
          yield* expectError(yield* create("limit-late", "bob"), 409, "limit_reached")
          expect((yield* create("alice-not-counted")).status).toBe(201)
        })
    )
  })
})
