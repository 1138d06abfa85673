/**
 * The limits of contract section 9 through the BUILT API process, on PostgreSQL and on the embedded
 * default: concurrent requests at a limit create exactly the limit, and every other one is a 409
 * `limit_reached` naming the limit and its value (here the projects per account, set low by the
 * operator's variable). Tests that need PostgreSQL fail (never skip) when the test server is
 * unreachable.
 */
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import {
  cleanUp,
  freshDatabase,
  randomKey,
  type ServerProcess,
  send,
  startServer,
  temporaryDirectory
} from "./support/ApiProcess.js"

const testTimeout = 120_000
const projectLimit = 4

afterEach(cleanUp, 60_000)

const storages: ReadonlyArray<readonly [string, () => Promise<Record<string, string>>]> = [
  ["the embedded default", async () => ({ PETSTORE_DATA_DIR: join(await temporaryDirectory(), "data") })],
  ["PostgreSQL", async () => ({ DATABASE_URL: (await freshDatabase()).url })]
]

const startWith = async (storage: Record<string, string>, key: string) => {
  const server = await startServer({
    ...storage,
    PETSTORE_BOOTSTRAP_KEY: key,
    PETSTORE_LIMIT_PROJECTS_PER_ACCOUNT: String(projectLimit)
  })
  await server.listening()
  return server
}

const projectIds = async (server: ServerProcess, key: string): Promise<ReadonlyArray<string>> => {
  const listed = await send(server.baseUrl, "/v1/projects?limit=100", { key })
  expect(listed.status, listed.text).toBe(200)
  return (listed.json() as ReadonlyArray<{ readonly id: string }>).map((project) => project.id)
}

for (const [name, storage] of storages) {
  describe(`limits on ${name}`, () => {
    it(
      "20 concurrent project creations by one account: exactly the limit is created, the rest 409 limit_reached",
      async () => {
        const key = randomKey()
        const server = await startWith(await storage(), key)
        const attempts = Array.from({ length: 20 }, (_, index) => `limited-${index}`)
        const responses = await Promise.all(
          attempts.map((id) =>
            send(server.baseUrl, "/v1/projects", { method: "POST", key, body: { id, plan: "pro" } })
          )
        )
        const created = responses.filter((response) => response.status === 201)
        expect(created).toHaveLength(projectLimit)
        for (const refused of responses.filter((response) => response.status !== 201)) {
          expect(refused.status, refused.text).toBe(409)
          expect(refused.json()).toEqual({
            code: "limit_reached",
            message: `limit reached: at most ${projectLimit} projects per account`,
            status: 409
          })
        }
        const listed = await projectIds(server, key)
        expect([...listed].sort()).toEqual(
          created.map((response) => (response.json() as { readonly id: string }).id).sort()
        )
        // Nothing was half created: a refused id is free, and still refused while the account is full.
        const refusedId = attempts.find((id) => !listed.includes(id)) as string
        const again = await send(server.baseUrl, `/v1/projects/${refusedId}`, { key })
        expect(again.status).toBe(404)
        expect(
          (
            await send(server.baseUrl, "/v1/projects", {
              method: "POST",
              key,
              body: { id: refusedId, plan: "pro" }
            })
          ).status
        ).toBe(409)
      },
      testTimeout
    )
  })
}
