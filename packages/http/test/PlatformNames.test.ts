/**
 * The platform's own names cannot be taken as custom domains, through a real server: names at or
 * under the registrable domain of the platform domain (its default hostnames and the rest of the
 * platform's own domain), and at or under the registrable domain of the CNAME target, which every
 * verified domain points to (a tenant once added that domain itself, verified it and got a
 * certificate for it).
 */
import { expect, layer } from "@effect/vitest"
import { MemoryStore } from "@petstore/store-memory"
import { Effect } from "effect"
import { json, jsonPost, TestServer, TestServerLive } from "./support/TestServer.js"

const platform = {
  platformDomain: "docs.petstore.dev",
  cnameTarget: "cname.petstore-sites.net",
  caIdentifier: "letsencrypt.org"
}

const addDomain = (hostname: string) =>
  Effect.flatMap(TestServer, (server) =>
    server.request("/v1/projects/handbook/domains", jsonPost({ hostname }))
  )

layer(TestServerLive(MemoryStore.layer, { platform }), { excludeTestServices: true })(
  "the platform's own names",
  (it) => {
    it.effect("are refused as custom domains, naming the reserved domain; other names are not", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const created = yield* server.request("/v1/projects", jsonPost({ id: "handbook", plan: "pro" }))
        expect(created.status).toBe(201)
        const deployed = yield* server.request(
          "/v1/projects/handbook/deploys",
          jsonPost({ status: "succeeded" })
        )
        expect(deployed.status).toBe(201)
        const refusals = [
          ["petstore-sites.net", "hostname: must not be under petstore-sites.net"],
          ["CNAME.petstore-sites.net.", "hostname: must not be under petstore-sites.net"],
          ["www.petstore-sites.net", "hostname: must not be under petstore-sites.net"],
          ["docs.petstore.dev", "hostname: must not be under petstore.dev"],
          ["handbook.docs.petstore.dev", "hostname: must not be under petstore.dev"],
          ["petstore.dev", "hostname: must not be under petstore.dev"],
          ["www.petstore.dev", "hostname: must not be under petstore.dev"]
        ] as const
        for (const [hostname, message] of refusals) {
          const answer = yield* addDomain(hostname)
          expect(answer.status).toBe(400)
          expect(yield* json(answer)).toEqual({ code: "invalid_request", message, status: 400 })
        }
        // Names that only look alike belong to their owners.
        for (const hostname of ["petstore-sites.com", "docs.my-petstore-sites.net", "my-petstore.dev"]) {
          expect((yield* addDomain(hostname)).status).toBe(201)
        }
        const listed = (yield* json(yield* server.request("/v1/projects/handbook/domains"))) as {
          readonly domains: ReadonlyArray<{ readonly hostname: string }>
        }
        expect(listed.domains.map((domain) => domain.hostname).sort()).toEqual([
          "docs.my-petstore-sites.net",
          "my-petstore.dev",
          "petstore-sites.com"
        ])
      })
    )
  }
)
