/**
 * The HTTP listener, over a real socket: ACME challenges for any Host, the domain's decision for
 * everything else, and the move to HTTPS once a hostname has a certificate.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Http01ChallengeStore } from "@petstore/certificates"
import { addDomain } from "@petstore/custom-domains"
import { DomainConfig, DomainRedirect, putDomainConfig } from "@petstore/serving"
import { Effect } from "effect"
import { EdgeAddresses } from "../src/EdgeServer.js"
import { http, raw } from "./support/EdgeClient.js"
import {
  account,
  deployedProject,
  issueCertificate,
  TestEdgeLive,
  verifiedDomain
} from "./support/EdgeFixture.js"

const httpPort = Effect.map(EdgeAddresses, (addresses) => addresses.http.port)

const expectPlainText = (answer: { readonly headers: { readonly "content-type"?: string | undefined } }) =>
  expect(answer.headers["content-type"]).toMatch(/^text\/plain/)

layer(TestEdgeLive, { excludeTestServices: true, timeout: 60_000 })("the HTTP listener", (it) => {
  describe("ACME HTTP-01 challenges", () => {
    it.effect("answers a published token with its key authorization, for any Host", () =>
      Effect.gen(function* () {
        const store = yield* Http01ChallengeStore
        yield* store.put("tok-EN_123", "tok-EN_123.thumbprint")
        const port = yield* httpPort
        for (const host of ["not-yet-served.example.com", "anything.example.org:80", "127.0.0.1"]) {
          const answer = yield* http(port, { host, path: "/.well-known/acme-challenge/tok-EN_123" })
          expect(answer.status).toBe(200)
          expect(answer.headers["content-type"]).toMatch(/^text\/plain/)
          expect(answer.body).toBe("tok-EN_123.thumbprint")
        }
      })
    )

    it.effect("is 404 for a token nobody published, or one that cannot be a token", () =>
      Effect.gen(function* () {
        const port = yield* httpPort
        for (const token of ["unknown-token", "", "a.b", "%2e%2e"]) {
          const answer = yield* http(port, {
            host: "docs.example.com",
            path: `/.well-known/acme-challenge/${token}`
          })
          expect(answer.status).toBe(404)
          expectPlainText(answer)
        }
      })
    )
  })

  it.effect("is 404 for a host nothing is served at", () =>
    Effect.gen(function* () {
      const port = yield* httpPort
      for (const host of ["unknown.example.com", "nope.docs.test", "docs.test", "127.0.0.1", ""]) {
        const answer = yield* http(port, { host, path: "/guide" })
        expect(answer.status).toBe(404)
        expectPlainText(answer)
        expect(answer.body).toBe("Not found\n")
      }
    })
  )

  it.effect("serves a project's default hostname over HTTP (it has no certificate here)", () =>
    Effect.gen(function* () {
      const projectId = yield* deployedProject("plain-docs", "free")
      const answer = yield* http(yield* httpPort, { host: `${projectId}.docs.test`, path: "/intro" })
      expect(answer.status).toBe(200)
      expect(answer.headers["content-type"]).toBe("text/html; charset=utf-8")
      expect(answer.headers["cache-control"]).toBe("no-store")
      expect(answer.body).toContain("<h1>plain-docs</h1>")
    })
  )

  it.effect("serves a verified domain over HTTP until it has a certificate, then moves it to HTTPS", () =>
    Effect.gen(function* () {
      const projectId = yield* deployedProject("moving-docs")
      const hostname = yield* verifiedDomain(projectId, "moving.example.com")
      const port = yield* httpPort
      const before = yield* http(port, { host: "Moving.Example.com:80", path: "/a/b?x=1&y=%20" })
      expect(before.status).toBe(200)
      expect(before.body).toContain("moving-docs")

      yield* issueCertificate(hostname)
      const after = yield* http(port, { host: "Moving.Example.com:80", path: "/a/b?x=1&y=%20" })
      expect(after.status).toBe(301)
      expect(after.headers.location).toBe("https://moving.example.com/a/b?x=1&y=%20")
    })
  )

  it.effect("redirects a redirect domain with 301 to the primary, keeping path and query", () =>
    Effect.gen(function* () {
      const projectId = yield* deployedProject("redirecting-docs")
      yield* verifiedDomain(projectId, "docs.redirecting.com")
      yield* verifiedDomain(projectId, "www.redirecting.com")
      yield* putDomainConfig(
        account,
        projectId,
        new DomainConfig({
          primary: "docs.redirecting.com",
          redirects: [
            new DomainRedirect({ from: "www.redirecting.com", to: "docs.redirecting.com", status: 301 })
          ]
        })
      )
      const port = yield* httpPort
      const answer = yield* http(port, { host: "www.redirecting.com", path: "/guide/install?lang=en" })
      expect(answer.status).toBe(301)
      expect(answer.headers.location).toBe("https://docs.redirecting.com/guide/install?lang=en")
      const root = yield* http(port, { host: "www.redirecting.com" })
      expect(root.headers.location).toBe("https://docs.redirecting.com/")
    })
  )

  it.effect("does not serve a pending domain", () =>
    Effect.gen(function* () {
      const projectId = yield* deployedProject("pending-docs")
      yield* addDomain(account, projectId, "pending.example.com")
      const answer = yield* http(yield* httpPort, { host: "pending.example.com" })
      expect(answer.status).toBe(404)
    })
  )

  it.effect("answers 405 with Allow to any method but GET and HEAD", () =>
    Effect.gen(function* () {
      yield* deployedProject("post-docs")
      const port = yield* httpPort
      for (const [method, path] of [
        ["POST", "/"],
        ["PUT", "/page"],
        ["DELETE", "/"],
        ["POST", "/.well-known/acme-challenge/tok"]
      ] as const) {
        const answer = yield* http(port, { host: "post-docs.docs.test", method, path })
        expect(answer.status).toBe(405)
        expect(answer.headers.allow).toBe("GET, HEAD")
        expectPlainText(answer)
      }
    })
  )

  it.effect("answers HEAD with the headers of GET and no body", () =>
    Effect.gen(function* () {
      yield* deployedProject("head-docs")
      const wire = yield* raw(
        yield* httpPort,
        "HEAD /page HTTP/1.1\r\nHost: head-docs.docs.test\r\nConnection: close\r\n\r\n"
      )
      const [head, body] = wire.split("\r\n\r\n")
      expect(head).toMatch(/^HTTP\/1\.1 200 /)
      expect(head).toMatch(/\r\ncontent-type: text\/html; charset=utf-8\r\n/i)
      expect(body).toBe("")
    })
  )
})
