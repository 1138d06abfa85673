/**
 * The built server configured for an ACME CA, as an operator would run it: `PETSTORE_ACME_DIRECTORY_URL`
 * pointing at a real Pebble, whose HTTPS endpoint is trusted through Node's own `NODE_EXTRA_CA_CERTS`,
 * the edge's HTTP port where Pebble validates. A domain verifies, Pebble issues, and the edge serves
 * the hostname over HTTPS with that certificate; the ACME account key is kept in the data directory.
 */
import { existsSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, expect, layer } from "@effect/vitest"
import { TestPebble, testPebbleLayerWith } from "@petstore/acme/testing"
import { Challtestsrv, challtestsrvLayer } from "@petstore/dns/testing"
import * as EdgeClient from "@petstore/edge/testing"
import { Context, Effect, Layer } from "effect"
import { cleanUp, freePort, randomKey, send, startServer, temporaryDirectory } from "./support/ApiProcess.js"

afterAll(cleanUp)

const cnameTarget = "edge.docs-acme.net"

class EdgePort extends Context.Service<EdgePort, number>()("test/EdgePort") {}

/** Pebble validating HTTP-01 on a port chosen here, for the edge of the server under test. */
const pebbleOnEdgePort = Layer.unwrap(
  Effect.map(Effect.promise(freePort), (edgeHttpPort) =>
    Layer.merge(Layer.succeed(EdgePort, edgeHttpPort), testPebbleLayerWith({ httpPort: edgeHttpPort }))
  )
).pipe(Layer.provideMerge(challtestsrvLayer))

layer(pebbleOnEdgePort, { excludeTestServices: true, timeout: 60_000 })("the server on an ACME CA", (it) => {
  it.effect(
    "orders from the configured directory, trusted through NODE_EXTRA_CA_CERTS, and serves the certificate",
    () =>
      Effect.gen(function* () {
        const pebble = yield* TestPebble
        const dns = yield* Challtestsrv
        const edgeHttp = yield* EdgePort
        const edgeHttps = yield* Effect.promise(freePort)
        const dataDir = yield* Effect.promise(temporaryDirectory)
        const caFile = join(dataDir, "pebble-https-ca.pem")
        writeFileSync(caFile, pebble.caPem)
        yield* dns.setCname("docs.acme-flow.com", cnameTarget)
        yield* dns.addA(cnameTarget, ["127.0.0.1"])

        const key = randomKey()
        const server = yield* Effect.promise(() =>
          startServer({
            PETSTORE_DATA_DIR: dataDir,
            PETSTORE_BOOTSTRAP_KEY: key,
            PETSTORE_DNS_SERVERS: dns.server,
            PETSTORE_CNAME_TARGET: cnameTarget,
            PETSTORE_PLATFORM_DOMAIN: "docs-acme.net",
            PETSTORE_WORKER_POLL_INTERVAL: "100 millis",
            PETSTORE_EDGE_HTTP_PORT: String(edgeHttp),
            PETSTORE_EDGE_HTTPS_PORT: String(edgeHttps),
            PETSTORE_ACME_DIRECTORY_URL: pebble.directoryUrl,
            PETSTORE_ACME_EMAIL: "ops@acme-flow.com",
            NODE_EXTRA_CA_CERTS: caFile
          })
        )
        yield* Effect.promise(() => server.listening(60_000))
        expect(server.stdout()).toContain(`certificates come from the ACME CA at ${pebble.directoryUrl}`)
        const call = (method: string, path: string, body?: object) =>
          Effect.promise(() =>
            send(server.baseUrl, path, { method, key, ...(body === undefined ? {} : { body }) })
          )
        expect((yield* call("POST", "/v1/projects", { id: "guide", plan: "enterprise" })).status).toBe(201)
        expect((yield* call("POST", "/v1/projects/guide/deploys", { status: "succeeded" })).status).toBe(201)
        expect(
          (yield* call("POST", "/v1/projects/guide/domains", { hostname: "docs.acme-flow.com" })).status
        ).toBe(201)

        let certificate = { status: "none" }
        for (let attempt = 0; attempt < 300 && certificate.status !== "issued"; attempt++) {
          yield* Effect.sleep("100 millis")
          const domain = yield* call("GET", "/v1/projects/guide/domains/docs.acme-flow.com")
          certificate = (domain.json() as { certificate: typeof certificate }).certificate
        }
        expect(certificate.status, server.output().slice(-3_000)).toBe("issued")

        const roots = yield* pebble.issuingRootPem
        const page = yield* EdgeClient.https(edgeHttps, { host: "docs.acme-flow.com", path: "/", ca: roots })
        expect(page.status).toBe(200)
        expect(page.body).toContain("guide")

        const accountKey = join(dataDir, "acme-account.pem")
        expect(existsSync(accountKey)).toBe(true)
        expect(statSync(accountKey).mode & 0o777).toBe(0o600)
        expect(server.stdout()).not.toContain("PRIVATE KEY")
        expect(yield* Effect.promise(() => server.terminate())).toEqual({ code: 0, signal: null })
      }),
    120_000
  )
})
