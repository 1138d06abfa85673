/**
 * The HTTPS listener, over real TLS with a client that trusts only the local CA's root: the
 * certificate is chosen by SNI among the stored ones, only for names served now, and every request
 * is decided again so that a removal or a downgrade takes effect on a connection already open.
 */
import { Agent } from "node:https"
import { describe, expect, layer } from "@effect/vitest"
import { removeDomain } from "@petstore/custom-domains"
import { CustomDomain, CustomDomainRepository } from "@petstore/domains"
import { changePlan } from "@petstore/projects"
import { DomainConfig, DomainRedirect, putDomainConfig } from "@petstore/serving"
import { Effect, Option } from "effect"
import { EdgeAddresses } from "../src/EdgeServer.js"
import { derOf, handshake, https, raw } from "./support/EdgeClient.js"
import {
  account,
  deployedProject,
  issueCertificate,
  servedDomain,
  TestEdgeLive,
  trustedRoot,
  verifiedDomain
} from "./support/EdgeFixture.js"

const httpsPort = Effect.map(EdgeAddresses, (addresses) => addresses.https.port)

/** A keep-alive agent with one connection, closed with the test. */
const keepAliveAgent = (ca: string) =>
  Effect.acquireRelease(
    Effect.sync(() => new Agent({ keepAlive: true, maxSockets: 1, ca: [ca] })),
    (agent) => Effect.sync(() => agent.destroy())
  )

layer(TestEdgeLive, { excludeTestServices: true, timeout: 60_000 })("the HTTPS listener", (it) => {
  it.effect("serves a verified domain with its stored certificate, trusted through the local root", () =>
    Effect.gen(function* () {
      const { issued } = yield* servedDomain("tls-docs", "docs.tls-example.com")
      const answer = yield* https(yield* httpsPort, {
        host: "docs.tls-example.com",
        path: "/guide?page=2",
        ca: yield* trustedRoot
      })
      expect(answer.status).toBe(200)
      expect(answer.peerCertificate?.equals(derOf(issued.certificatePem))).toBe(true)
      expect(answer.headers["content-type"]).toBe("text/html; charset=utf-8")
      expect(answer.headers["cache-control"]).toBe("no-store")
      expect(answer.body).toContain("<title>tls-docs</title>")
      expect(answer.body).toContain("<h1>tls-docs</h1>")
    })
  )

  it.effect("redirects a redirect domain with 301 to the primary, keeping path and query", () =>
    Effect.gen(function* () {
      const { projectId } = yield* servedDomain("tls-redirect", "docs.tls-redirect.com")
      const www = yield* verifiedDomain(projectId, "www.tls-redirect.com")
      const issued = yield* issueCertificate(www)
      yield* putDomainConfig(
        account,
        projectId,
        new DomainConfig({
          primary: "docs.tls-redirect.com",
          redirects: [new DomainRedirect({ from: www, to: "docs.tls-redirect.com", status: 301 })]
        })
      )
      const answer = yield* https(yield* httpsPort, {
        host: www,
        path: "/a/b?c=d&e=%2F",
        ca: yield* trustedRoot
      })
      expect(answer.status).toBe(301)
      expect(answer.headers.location).toBe("https://docs.tls-redirect.com/a/b?c=d&e=%2F")
      expect(answer.peerCertificate?.equals(derOf(issued.certificatePem))).toBe(true)
    })
  )

  describe("the handshake is refused", () => {
    it.effect("for a name nothing is served at, and without SNI (there is no default certificate)", () =>
      Effect.gen(function* () {
        yield* servedDomain("tls-known", "docs.tls-known.com")
        const port = yield* httpsPort
        const ca = yield* trustedRoot
        expect((yield* handshake(port, ca, "docs.tls-known.com"))._tag).toBe("Accepted")
        expect((yield* handshake(port, ca, "unknown.tls-known.com"))._tag).toBe("Refused")
        expect((yield* handshake(port, ca, "tls-known.docs.test"))._tag).toBe("Refused")
        expect((yield* handshake(port, ca))._tag).toBe("Refused")
      })
    )

    it.effect("for a verified domain whose certificate is not issued yet", () =>
      Effect.gen(function* () {
        const projectId = yield* deployedProject("tls-waiting")
        yield* verifiedDomain(projectId, "docs.tls-waiting.com")
        const result = yield* handshake(yield* httpsPort, yield* trustedRoot, "docs.tls-waiting.com")
        expect(result._tag).toBe("Refused")
      })
    )

    it.effect("for a pending domain, even with a certificate in the store", () =>
      Effect.gen(function* () {
        const projectId = yield* deployedProject("tls-pending")
        const hostname = yield* verifiedDomain(projectId, "docs.tls-pending.com")
        yield* issueCertificate(hostname)
        // Pending again (its certificate stays in the store).
        const domains = yield* CustomDomainRepository
        const stored = yield* domains.findInProject(projectId, hostname)
        if (Option.isNone(stored)) return yield* Effect.die("the domain is stored")
        expect(yield* domains.update(new CustomDomain({ ...stored.value, status: "pending" }))).toBe(true)
        const result = yield* handshake(yield* httpsPort, yield* trustedRoot, "docs.tls-pending.com")
        expect(result._tag).toBe("Refused")
      })
    )

    it.effect("for a domain right after it is removed", () =>
      Effect.gen(function* () {
        const { projectId, hostname } = yield* servedDomain("tls-removed", "docs.tls-removed.com")
        const port = yield* httpsPort
        const ca = yield* trustedRoot
        expect((yield* handshake(port, ca, hostname))._tag).toBe("Accepted")
        yield* removeDomain(account, projectId, hostname)
        expect((yield* handshake(port, ca, hostname))._tag).toBe("Refused")
      })
    )

    it.effect("for a domain of a project downgraded to the free plan (its certificate still stored)", () =>
      Effect.gen(function* () {
        const { projectId, hostname } = yield* servedDomain("tls-free", "docs.tls-free.com")
        const port = yield* httpsPort
        const ca = yield* trustedRoot
        expect((yield* handshake(port, ca, hostname))._tag).toBe("Accepted")
        yield* changePlan(account, projectId, "free")
        expect((yield* handshake(port, ca, hostname))._tag).toBe("Refused")
      })
    )
  })

  it.effect("stops serving a removed domain at once on a kept-alive connection", () =>
    Effect.gen(function* () {
      const { projectId, hostname } = yield* servedDomain("tls-kept", "docs.tls-kept.com")
      const port = yield* httpsPort
      const ca = yield* trustedRoot
      const agent = yield* keepAliveAgent(ca)
      const first = yield* https(port, { host: hostname, ca, agent })
      expect(first.status).toBe(200)
      yield* removeDomain(account, projectId, hostname)
      const second = yield* https(port, { host: hostname, ca, agent })
      expect(second.reusedSocket).toBe(true)
      expect(second.status).toBe(404)
      expect(second.headers["content-type"]).toMatch(/^text\/plain/)
    })
  )

  it.effect("stops serving a downgraded project at once on a kept-alive connection", () =>
    Effect.gen(function* () {
      const { projectId, hostname } = yield* servedDomain("tls-kept-free", "docs.tls-kept-free.com")
      const port = yield* httpsPort
      const ca = yield* trustedRoot
      const agent = yield* keepAliveAgent(ca)
      expect((yield* https(port, { host: hostname, ca, agent })).status).toBe(200)
      yield* changePlan(account, projectId, "free")
      const second = yield* https(port, { host: hostname, ca, agent })
      expect(second.reusedSocket).toBe(true)
      expect(second.status).toBe(404)
    })
  )

  it.effect("answers 421 to a Host other than the name the connection was opened for", () =>
    Effect.gen(function* () {
      yield* servedDomain("tls-first", "docs.tls-first.com")
      yield* servedDomain("tls-second", "docs.tls-second.com")
      const answer = yield* https(yield* httpsPort, {
        host: "docs.tls-second.com",
        servername: "docs.tls-first.com",
        ca: yield* trustedRoot
      })
      expect(answer.status).toBe(421)
      expect(answer.headers["content-type"]).toMatch(/^text\/plain/)
      expect(answer.body).not.toContain("tls-second")
    })
  )

  it.effect("answers 405 with Allow to POST", () =>
    Effect.gen(function* () {
      const { hostname } = yield* servedDomain("tls-post", "docs.tls-post.com")
      const answer = yield* https(yield* httpsPort, {
        host: hostname,
        method: "POST",
        ca: yield* trustedRoot
      })
      expect(answer.status).toBe(405)
      expect(answer.headers.allow).toBe("GET, HEAD")
      expect(answer.headers["content-type"]).toMatch(/^text\/plain/)
    })
  )

  it.effect("answers HEAD with the headers of GET and no body", () =>
    Effect.gen(function* () {
      const { hostname } = yield* servedDomain("tls-head", "docs.tls-head.com")
      const wire = yield* raw(
        yield* httpsPort,
        `HEAD / HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`,
        { servername: hostname, ca: yield* trustedRoot }
      )
      const [head, body] = wire.split("\r\n\r\n")
      expect(head).toMatch(/^HTTP\/1\.1 200 /)
      expect(head).toMatch(/\r\ncontent-type: text\/html; charset=utf-8\r\n/i)
      expect(head).toMatch(/\r\ncontent-length: [1-9][0-9]*\r\n/i)
      expect(body).toBe("")
    })
  )
})
