/**
 * The limits of contract section 9 through the BUILT API process, on the embedded default and on
 * PostgreSQL: 60 concurrent additions to one project create exactly 50 domains, 12 concurrent claims
 * of one account exactly 5 (pending) claims and 15 concurrent webhooks of one project exactly 10 (their
 * defaults), and 20 concurrent project creations at a limit the operator set to 4 exactly 4 projects;
 * every other answer is a 409 `limit_reached` naming the limit and its value. The PostgreSQL half
 * fails (never skips) when the test server is unreachable.
 */
import { afterEach, describe, expect, it } from "vitest"
import {
  bothStorages,
  cleanUp,
  freePort,
  type HttpResponse,
  randomKey,
  type ServerProcess,
  send,
  startServer
} from "./support/ApiProcess.js"

const testTimeout = 120_000

afterEach(cleanUp, 60_000)

const startWith = async (
  storage: Record<string, string>,
  key: string,
  limits: Record<string, string> = {}
) => {
  const server = await startServer({
    ...storage,
    ...limits,
    PETSTORE_BOOTSTRAP_KEY: key,
    // Nothing answers there: the worker's checks of the new domains fail fast, offline.
    PETSTORE_DNS_SERVERS: `127.0.0.1:${await freePort()}`
  })
  await server.listening()
  return server
}

const readyProject = async (server: ServerProcess, key: string, id: string) => {
  const created = await send(server.baseUrl, "/v1/projects", {
    method: "POST",
    key,
    body: { id, plan: "pro" }
  })
  expect(created.status, created.text).toBe(201)
  const deployed = await send(server.baseUrl, `/v1/projects/${id}/deploys`, {
    method: "POST",
    key,
    body: { status: "succeeded" }
  })
  expect(deployed.status, deployed.text).toBe(201)
}

const expectLimitReached = (responses: ReadonlyArray<HttpResponse>, message: string) => {
  for (const refused of responses) {
    expect(refused.status, refused.text).toBe(409)
    expect(refused.json()).toEqual({ code: "limit_reached", message, status: 409 })
  }
}

for (const [name, storage] of bothStorages) {
  describe(`limits on ${name}`, () => {
    it(
      "60 concurrent additions to one project: exactly 50 domains, the rest 409 limit_reached; 12 concurrent claims: exactly 5 pending",
      async () => {
        const key = randomKey()
        const server = await startWith(await storage(), key)
        await readyProject(server, key, "crowded")
        await readyProject(server, key, "roomy")

        const hostnames = Array.from({ length: 60 }, (_, index) => `docs${index}.crowded-limits.com`)
        const added = await Promise.all(
          hostnames.map((hostname) =>
            send(server.baseUrl, "/v1/projects/crowded/domains", { method: "POST", key, body: { hostname } })
          )
        )
        const created = added.filter((response) => response.status === 201)
        expect(created).toHaveLength(50)
        expectLimitReached(
          added.filter((response) => response.status !== 201),
          "limit reached: at most 50 domains per project"
        )
        const listed = await send(server.baseUrl, "/v1/projects/crowded/domains", { key })
        expect(listed.status).toBe(200)
        const stored = (listed.json() as { readonly domains: ReadonlyArray<{ readonly hostname: string }> })
          .domains
        expect(stored.map((domain) => domain.hostname).sort()).toEqual(
          created.map((response) => (response.json() as { readonly hostname: string }).hostname).sort()
        )
        // Another project of the account has room of its own.
        const elsewhere = await send(server.baseUrl, "/v1/projects/roomy/domains", {
          method: "POST",
          key,
          body: { hostname: "docs.roomy-limits.com" }
        })
        expect(elsewhere.status, elsewhere.text).toBe(201)

        const apexes = Array.from({ length: 12 }, (_, index) => `claimed${index}-limits.com`)
        const claimed = await Promise.all(
          apexes.map((apex) => send(server.baseUrl, "/v1/claims", { method: "POST", key, body: { apex } }))
        )
        const pending = claimed.filter((response) => response.status === 201)
        expect(pending).toHaveLength(5)
        expectLimitReached(
          claimed.filter((response) => response.status !== 201),
          "limit reached: at most 5 pending claims per account"
        )
        const claims = await send(server.baseUrl, "/v1/claims", { key })
        expect((claims.json() as { readonly claims: ReadonlyArray<unknown> }).claims).toHaveLength(5)
        // Claiming an apex the account has already answers that claim, limit or not.
        const again = pending[0]?.json() as { readonly apex: string }
        const repeated = await send(server.baseUrl, "/v1/claims", {
          method: "POST",
          key,
          body: { apex: again.apex }
        })
        expect(repeated.status, repeated.text).toBe(200)
      },
      testTimeout
    )

    it(
      "15 concurrent webhooks of one project: exactly 10, the rest 409 limit_reached; another project has room of its own",
      async () => {
        const key = randomKey()
        const server = await startWith(await storage(), key)
        await readyProject(server, key, "hooked")
        await readyProject(server, key, "unhooked")
        const created = await Promise.all(
          Array.from({ length: 15 }, (_, index) =>
            send(server.baseUrl, "/v1/projects/hooked/webhooks", {
              method: "POST",
              key,
              body: { url: `https://hooks.example.com/in/${index}` }
            })
          )
        )
        expect(created.filter((response) => response.status === 201)).toHaveLength(10)
        expectLimitReached(
          created.filter((response) => response.status !== 201),
          "limit reached: at most 10 webhooks per project"
        )
        const listed = await send(server.baseUrl, "/v1/projects/hooked/webhooks", { key })
        expect((listed.json() as { readonly webhooks: ReadonlyArray<unknown> }).webhooks).toHaveLength(10)
        const elsewhere = await send(server.baseUrl, "/v1/projects/unhooked/webhooks", {
          method: "POST",
          key,
          body: { url: "https://hooks.example.com/in/other" }
        })
        expect(elsewhere.status, elsewhere.text).toBe(201)
      },
      testTimeout
    )

    it(
      "20 concurrent project creations at a limit of 4 (PETSTORE_LIMIT_PROJECTS_PER_ACCOUNT): exactly 4, the rest 409 limit_reached",
      async () => {
        const key = randomKey()
        const server = await startWith(await storage(), key, { PETSTORE_LIMIT_PROJECTS_PER_ACCOUNT: "4" })
        const attempts = Array.from({ length: 20 }, (_, index) => `limited-${index}`)
        const responses = await Promise.all(
          attempts.map((id) =>
            send(server.baseUrl, "/v1/projects", { method: "POST", key, body: { id, plan: "pro" } })
          )
        )
        const created = responses.filter((response) => response.status === 201)
        expect(created).toHaveLength(4)
        expectLimitReached(
          responses.filter((response) => response.status !== 201),
          "limit reached: at most 4 projects per account"
        )
        const listed = await send(server.baseUrl, "/v1/projects?limit=100", { key })
        expect(listed.status, listed.text).toBe(200)
        const ids = (listed.json() as ReadonlyArray<{ readonly id: string }>).map((project) => project.id)
        expect([...ids].sort()).toEqual(
          created.map((response) => (response.json() as { readonly id: string }).id).sort()
        )
        // Nothing was half created: a refused id names no project, and is refused again while the account is full.
        const refusedId = attempts.find((id) => !ids.includes(id)) as string
        expect((await send(server.baseUrl, `/v1/projects/${refusedId}`, { key })).status).toBe(404)
        const again = await send(server.baseUrl, "/v1/projects", {
          method: "POST",
          key,
          body: { id: refusedId, plan: "pro" }
        })
        expectLimitReached([again], "limit reached: at most 4 projects per account")
      },
      testTimeout
    )
  })
}
