/**
 * `pnpm start` on the embedded default runs the domain checks in the API process itself: a domain
 * whose DNS record exists verifies without anyone clicking Verify, through the real resolver.
 */

import { afterAll, expect, layer } from "@effect/vitest"
import { Challtestsrv, challtestsrvLayer } from "@petstore/dns/testing"
import { Effect } from "effect"
import { cleanUp, randomKey, send, startServer, temporaryDirectory } from "./support/ApiProcess.js"

const cnameTarget = "cname.sites.example.net"

afterAll(cleanUp)

layer(challtestsrvLayer, { excludeTestServices: true, timeout: 60_000 })(
  "the embedded default's own worker",
  (it) => {
    it.effect(
      "verifies a domain whose CNAME exists without a click, then serves it at the edge",
      () =>
        Effect.gen(function* () {
          const dns = yield* Challtestsrv
          yield* dns.setCname("docs.worker-check.com", cnameTarget)
          const key = randomKey()
          const dataDir = yield* Effect.promise(temporaryDirectory)
          const server = yield* Effect.promise(() =>
            startServer({
              PETSTORE_DATA_DIR: dataDir,
              PETSTORE_BOOTSTRAP_KEY: key,
              PETSTORE_DNS_SERVERS: dns.server,
              PETSTORE_CNAME_TARGET: cnameTarget,
              PETSTORE_PLATFORM_DOMAIN: "sites.example.net",
              PETSTORE_WORKER_POLL_INTERVAL: "100 millis"
            })
          )
          yield* Effect.promise(() => server.listening(60_000))
          const call = (method: string, path: string, body?: object) =>
            Effect.promise(() =>
              send(server.baseUrl, path, { method, key, ...(body === undefined ? {} : { body }) })
            )
          expect((yield* call("POST", "/v1/projects", { id: "handbook", plan: "pro" })).status).toBe(201)
          expect((yield* call("POST", "/v1/projects/handbook/deploys", { status: "succeeded" })).status).toBe(
            201
          )
          const added = yield* call("POST", "/v1/projects/handbook/domains", {
            hostname: "docs.worker-check.com"
          })
          expect(added.status, added.text).toBe(201)
          expect(added.json()).toMatchObject({ status: "pending" })

          let status = "pending"
          for (let attempt = 0; attempt < 100 && status !== "verified"; attempt++) {
            yield* Effect.sleep("100 millis")
            const domain = yield* call("GET", "/v1/projects/handbook/domains/docs.worker-check.com")
            status = (domain.json() as { status: string }).status
          }
          expect(status).toBe("verified")
          const edge = yield* call("GET", "/v1/edge/resolve?host=docs.worker-check.com")
          expect(edge.json()).toEqual({ action: "serve", projectId: "handbook" })
          const exit = yield* Effect.promise(() => server.terminate())
          expect(exit).toEqual({ code: 0, signal: null })
        }),
      120_000
    )
  }
)
