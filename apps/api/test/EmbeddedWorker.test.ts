/**
 * `pnpm start` on the embedded default runs the domain checks in the API process itself: a domain
 * whose DNS record exists verifies without anyone clicking Verify, through the real resolver; its
 * certificate comes from the local CA kept in the data directory, and the process's edge serves it
 * over HTTPS to a client trusting only that CA, until it is removed through the API, from the very
 * next handshake; the edge limits unknown names as configured. The edge's ports being taken does
 * not stop the API.
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"
import { afterAll, expect, layer } from "@effect/vitest"
import { Challtestsrv, challtestsrvLayer } from "@petstore/dns/testing"
import * as EdgeClient from "@petstore/edge/testing"
import { Effect } from "effect"
import {
  cleanUp,
  freePort,
  logLines,
  randomKey,
  send,
  startServer,
  temporaryDirectory
} from "./support/ApiProcess.js"

const cnameTarget = "cname.sites.example.net"

afterAll(cleanUp)

layer(challtestsrvLayer, { excludeTestServices: true, timeout: 60_000 })(
  "the embedded default's own worker",
  (it) => {
    it.effect(
      "verifies a domain whose CNAME exists without a click, issues its certificate, serves it at the edge",
      () =>
        Effect.gen(function* () {
          const dns = yield* Challtestsrv
          yield* dns.setCname("docs.worker-check.com", cnameTarget)
          const key = randomKey()
          const dataDir = yield* Effect.promise(temporaryDirectory)
          const edgeHttp = yield* Effect.promise(freePort)
          const edgeHttps = yield* Effect.promise(freePort)
          const server = yield* Effect.promise(() =>
            startServer({
              PETSTORE_EDGE_HTTP_PORT: String(edgeHttp),
              PETSTORE_EDGE_HTTPS_PORT: String(edgeHttps),
              PETSTORE_DATA_DIR: dataDir,
              PETSTORE_BOOTSTRAP_KEY: key,
              PETSTORE_DNS_SERVERS: dns.server,
              PETSTORE_CNAME_TARGET: cnameTarget,
              PETSTORE_PLATFORM_DOMAIN: "sites.example.net",
              PETSTORE_WORKER_POLL_INTERVAL: "100 millis",
              PETSTORE_EDGE_UNKNOWN_NAME_LIMIT: "3"
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

          let certificate: { status: string; issuedAt: string | null; expiresAt: string | null } = {
            status: "pending",
            issuedAt: null,
            expiresAt: null
          }
          for (let attempt = 0; attempt < 100 && certificate.status !== "issued"; attempt++) {
            yield* Effect.sleep("100 millis")
            const domain = yield* call("GET", "/v1/projects/handbook/domains/docs.worker-check.com")
            certificate = (domain.json() as { certificate: typeof certificate }).certificate
          }
          expect(certificate.status).toBe("issued")
          expect(Date.parse(certificate.expiresAt ?? "")).toBeGreaterThan(
            Date.parse(certificate.issuedAt ?? "")
          )

          const root = readFileSync(join(dataDir, "internal-ca", "root.crt"), "utf8")
          const page = yield* EdgeClient.https(edgeHttps, {
            host: "docs.worker-check.com",
            path: "/",
            ca: root
          })
          expect(page.status).toBe(200)
          expect(page.body).toContain("handbook")
          const plain = yield* EdgeClient.http(edgeHttp, { host: "docs.worker-check.com", path: "/intro" })
          expect(plain.status).toBe(301)
          expect(plain.headers.location).toBe("https://docs.worker-check.com/intro")
          // The configured budget of unknown names (3), for one client address (another than the
          // requests above and below, which it must not affect).
          const unknown = yield* Effect.forEach([1, 2, 3, 4], (n) =>
            EdgeClient.http(edgeHttp, { host: `n${n}.unknown-names.com`, localAddress: "127.0.0.2" })
          )
          expect(unknown.map((answer) => answer.status)).toEqual([404, 404, 404, 429])
          expect(Number(unknown[3]?.headers["retry-after"])).toBeGreaterThanOrEqual(1)

          expect((yield* call("DELETE", "/v1/projects/handbook/domains/docs.worker-check.com")).status).toBe(
            204
          )
          const refused = yield* EdgeClient.handshake(edgeHttps, root, "docs.worker-check.com")
          expect(refused._tag).toBe("Refused")
          const exit = yield* Effect.promise(() => server.terminate())
          expect(exit).toEqual({ code: 0, signal: null })
        }),
      120_000
    )

    it.effect(
      "keeps serving the API when the edge's port is taken, and says so",
      () =>
        Effect.gen(function* () {
          const taken = yield* Effect.promise(
            () =>
              new Promise<{ port: number; close: () => void }>((resolve) => {
                const blocker = createServer()
                blocker.listen(0, "0.0.0.0", () => {
                  const address = blocker.address()
                  resolve({
                    port: typeof address === "object" && address !== null ? address.port : 0,
                    close: () => blocker.close()
                  })
                })
              })
          )
          const key = randomKey()
          const server = yield* Effect.promise(async () =>
            startServer({
              PETSTORE_EDGE_HTTP_PORT: String(taken.port),
              PETSTORE_DATA_DIR: await temporaryDirectory(),
              PETSTORE_BOOTSTRAP_KEY: key
            })
          )
          yield* Effect.promise(() => server.listening(60_000))
          const pets = yield* Effect.promise(() => send(server.baseUrl, "/v1/pets", { key }))
          expect(pets.status).toBe(200)
          const errors = logLines(server.stdout()).filter((line) => line.logLevel === "ERROR")
          expect(JSON.stringify(errors)).toContain("the edge is not serving custom domains")
          expect(JSON.stringify(errors)).toContain(String(taken.port))
          expect(yield* Effect.promise(() => server.terminate())).toEqual({ code: 0, signal: null })
          taken.close()
        }),
      120_000
    )
  }
)
