/**
 * NodeWebhookSender against real receivers on loopback (HTTP and HTTPS servers started per test): what
 * a receiver gets and verifies with `standardwebhooks`, how each answer becomes an outcome, redirects not
 * followed, the timeout, and the address checks: with private addresses refused, a loopback receiver
 * must not even see a connection.
 */
import { randomBytes } from "node:crypto"
import { createSocket } from "node:dgram"
import { describe, expect, it } from "@effect/vitest"
import { NodeDnsResolver } from "@petstore/dns"
import type { WebhookRequest } from "@petstore/webhooks"
import { Duration, Effect } from "effect"
import { Webhook } from "standardwebhooks"
import { NodeWebhookSender } from "../src/index.js"
import * as TestReceiver from "./support/TestReceiver.js"

const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`

const event = {
  id: "evt_01jz6q2m3n4p5q6r7s8t9v0w1x",
  type: "domain.added",
  occurredAt: "2026-07-01T12:00:00.000Z",
  projectId: "docs-ünïcode",
  hostname: "docs.example.com",
  data: { hostname: "docs.example.com", status: "pending", note: "résumé ✓" }
}

const requestTo = (url: string, overrides: Partial<WebhookRequest> = {}): WebhookRequest => ({
  url,
  webhookId: event.id,
  // Whole seconds, and now: `verify` refuses timestamps more than five minutes away.
  timestamp: new Date(Math.floor(Date.now() / 1000) * 1000),
  body: JSON.stringify(event),
  secrets: [newSecret()],
  ...overrides
})

const secretOf = (request: WebhookRequest) => request.secrets[0] ?? ""

/** A resolver that answers `addresses` for any name. */
const records =
  (...addresses: [string, ...Array<string>]): NodeWebhookSender.Resolve =>
  () =>
    Effect.succeed({ _tag: "Records", records: addresses })
/** A resolver that knows no name. */
const nowhere: NodeWebhookSender.Resolve = () => Effect.succeed({ _tag: "NoRecords", reason: "nxdomain" })

type TestOptions = NodeWebhookSender.Options & { readonly resolve?: NodeWebhookSender.Resolve }

const send = ({ resolve = nowhere, ...options }: TestOptions, request: WebhookRequest) =>
  Effect.flatMap(NodeWebhookSender.make(options, resolve), (sender) => sender.send(request))

const allowPrivate: NodeWebhookSender.Options = { allowPrivate: true, timeout: Duration.seconds(5) }
const production: NodeWebhookSender.Options = { allowPrivate: false, timeout: Duration.seconds(5) }

const ok = () => ({ status: 204 })

describe("NodeWebhookSender", () => {
  describe("a delivery", () => {
    it.live("posts the exact body with the Standard Webhooks headers, which the receiver verifies", () =>
      Effect.gen(function* () {
        const receiver = yield* TestReceiver.start(ok)
        const request = requestTo(`http://127.0.0.1:${receiver.port}/hooks/in?team=docs`)

        const outcome = yield* send(allowPrivate, request)

        expect(outcome).toEqual({ _tag: "Delivered", status: 204 })
        expect(receiver.requests()).toHaveLength(1)
        const [received] = receiver.requests()
        expect(received?.method).toBe("POST")
        expect(received?.path).toBe("/hooks/in?team=docs")
        expect(received?.body).toBe(request.body)
        expect(received?.headers["content-type"]).toBe("application/json")
        expect(received?.headers["content-length"]).toBe(String(Buffer.byteLength(request.body)))
        expect(received?.headers["webhook-id"]).toBe(event.id)
        expect(received?.headers["webhook-timestamp"]).toBe(String(request.timestamp.getTime() / 1000))
        expect(received?.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/)
        expect(received?.headers.host).toBe(`127.0.0.1:${receiver.port}`)

        const headers = {
          "webhook-id": String(received?.headers["webhook-id"]),
          "webhook-timestamp": String(received?.headers["webhook-timestamp"]),
          "webhook-signature": String(received?.headers["webhook-signature"])
        }
        expect(new Webhook(secretOf(request)).verify(received?.body ?? "", headers)).toEqual(event)
        // The signature holds for this secret and this body only.
        expect(() => new Webhook(newSecret()).verify(received?.body ?? "", headers)).toThrow(
          "No matching signature found"
        )
        expect(() => new Webhook(secretOf(request)).verify(`${received?.body} `, headers)).toThrow(
          "No matching signature found"
        )
      })
    )

    it.live(
      "signs with every secret given: a receiver holding either verifies, one holding neither does not",
      () =>
        Effect.gen(function* () {
          const receiver = yield* TestReceiver.start(ok)
          const [current, previous] = [newSecret(), newSecret()]
          const request = requestTo(`http://127.0.0.1:${receiver.port}/`, { secrets: [current, previous] })

          expect(yield* send(allowPrivate, request)).toEqual({ _tag: "Delivered", status: 204 })
          const [received] = receiver.requests()
          const signature = String(received?.headers["webhook-signature"])
          expect(signature).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/)
          const headers = {
            "webhook-id": String(received?.headers["webhook-id"]),
            "webhook-timestamp": String(received?.headers["webhook-timestamp"]),
            "webhook-signature": signature
          }
          for (const secret of [current, previous]) {
            expect(new Webhook(secret).verify(received?.body ?? "", headers)).toEqual(event)
          }
          expect(() => new Webhook(newSecret()).verify(received?.body ?? "", headers)).toThrow(
            "No matching signature found"
          )
        })
    )

    it.live("signs the same webhook-id and timestamp to the same signature on every attempt", () =>
      Effect.gen(function* () {
        const receiver = yield* TestReceiver.start(ok)
        const request = requestTo(`http://127.0.0.1:${receiver.port}/`)

        yield* send(allowPrivate, request)
        yield* send(allowPrivate, request)

        const [first, second] = receiver.requests()
        expect(first?.headers["webhook-id"]).toBe(event.id)
        expect(second?.headers["webhook-id"]).toBe(event.id)
        expect(second?.headers["webhook-signature"]).toBe(first?.headers["webhook-signature"])
      })
    )

    it.live("any 2xx is Delivered with its status", () =>
      Effect.gen(function* () {
        for (const status of [200, 201, 202, 204, 299]) {
          const receiver = yield* TestReceiver.start(() => ({ status }))
          const outcome = yield* send(allowPrivate, requestTo(`http://127.0.0.1:${receiver.port}/`))
          expect(outcome).toEqual({ _tag: "Delivered", status })
        }
      })
    )

    it.live("any other status is Rejected with it", () =>
      Effect.gen(function* () {
        for (const status of [500, 503, 404, 410, 429, 400, 304]) {
          const receiver = yield* TestReceiver.start(() => ({ status }))
          const outcome = yield* send(allowPrivate, requestTo(`http://127.0.0.1:${receiver.port}/`))
          expect(outcome).toEqual({ _tag: "Rejected", status })
          expect(receiver.requests()).toHaveLength(1)
        }
      })
    )
  })

  describe("redirects", () => {
    it.live("are Rejected with their status, and the Location is never requested", () =>
      Effect.gen(function* () {
        for (const status of [301, 302, 303, 307, 308]) {
          const target = yield* TestReceiver.start(ok)
          const receiver = yield* TestReceiver.start((request) =>
            request.path === "/hook"
              ? { status, headers: { location: `http://127.0.0.1:${target.port}/elsewhere` } }
              : { status: 204 }
          )
          const outcome = yield* send(allowPrivate, requestTo(`http://127.0.0.1:${receiver.port}/hook`))

          expect(outcome).toEqual({ _tag: "Rejected", status })
          expect(receiver.requests().map(({ path }) => path)).toEqual(["/hook"])
          expect(target.connections()).toBe(0)
          expect(target.requests()).toEqual([])
        }
      })
    )

    it.live("a relative Location on the same server is not requested either", () =>
      Effect.gen(function* () {
        const receiver = yield* TestReceiver.start((request) =>
          request.path === "/hook" ? { status: 302, headers: { location: "/moved" } } : { status: 204 }
        )
        const outcome = yield* send(allowPrivate, requestTo(`http://127.0.0.1:${receiver.port}/hook`))

        expect(outcome).toEqual({ _tag: "Rejected", status: 302 })
        expect(receiver.requests().map(({ path }) => path)).toEqual(["/hook"])
      })
    )
  })

  describe("unreachable receivers", () => {
    it.live("a receiver that never answers is Unreachable once the timeout has passed, not long after", () =>
      Effect.gen(function* () {
        const receiver = yield* TestReceiver.start(() => "never")
        const started = Date.now()

        const outcome = yield* send(
          { allowPrivate: true, timeout: Duration.millis(400) },
          requestTo(`http://127.0.0.1:${receiver.port}/`)
        )

        const elapsed = Date.now() - started
        expect(outcome).toEqual({ _tag: "Unreachable", reason: "timeout" })
        expect(receiver.requests()).toHaveLength(1)
        expect(elapsed).toBeGreaterThanOrEqual(390)
        expect(elapsed).toBeLessThan(2_000)
      })
    )

    it.live(
      "a server that accepts the connection but never starts TLS is Unreachable within the timeout",
      () =>
        Effect.gen(function* () {
          const silent = yield* TestReceiver.silent
          const started = Date.now()

          const outcome = yield* send(
            { allowPrivate: true, timeout: Duration.millis(400) },
            requestTo(`https://127.0.0.1:${silent.port}/`)
          )

          expect(outcome).toEqual({ _tag: "Unreachable", reason: "timeout" })
          expect(silent.connections()).toBe(1)
          expect(Date.now() - started).toBeLessThan(2_000)
        })
    )

    it.live("the production timeout is 10 seconds", () =>
      Effect.sync(() => expect(Duration.toMillis(NodeWebhookSender.defaultTimeout)).toBe(10_000))
    )

    it.live("a closed port is Unreachable: connection refused", () =>
      Effect.gen(function* () {
        const port = yield* TestReceiver.closedPort
        const outcome = yield* send(allowPrivate, requestTo(`http://127.0.0.1:${port}/`))

        expect(outcome).toEqual({ _tag: "Unreachable", reason: "connection_error" })
      })
    )

    it.live(
      "a name that does not resolve, or resolves to nothing, is a dns_error, without the resolver's words",
      () =>
        Effect.gen(function* () {
          for (const resolve of [
            nowhere,
            (): ReturnType<NodeWebhookSender.Resolve> =>
              Effect.succeed({ _tag: "NoRecords", reason: "nodata" }),
            (): ReturnType<NodeWebhookSender.Resolve> =>
              Effect.succeed({ _tag: "Failure", reason: "servfail", detail: "ESERVFAIL 10.9.8.7" })
          ]) {
            const outcome = yield* send({ ...allowPrivate, resolve }, requestTo("https://hooks.test/"))
            expect(outcome).toEqual({ _tag: "Unreachable", reason: "dns_error" })
          }
        })
    )

    it.live("a resolver that never answers counts against the timeout", () =>
      Effect.gen(function* () {
        const started = Date.now()
        const outcome = yield* send(
          { allowPrivate: true, timeout: Duration.millis(300), resolve: () => Effect.never },
          requestTo("https://hooks.test/")
        )
        expect(outcome).toEqual({ _tag: "Unreachable", reason: "timeout" })
        expect(Date.now() - started).toBeLessThan(2_000)
      })
    )

    it.live(
      "with the c-ares resolver, a DNS server that never answers is a dns_error within its own timeout",
      () =>
        Effect.gen(function* () {
          // A UDP socket that reads the queries and answers none.
          const server = createSocket("udp4")
          yield* Effect.acquireRelease(
            Effect.promise(() => new Promise<void>((resolve) => server.bind(0, "127.0.0.1", resolve))),
            () => Effect.sync(() => server.close())
          )
          const port = server.address().port
          const resolver = yield* NodeDnsResolver.make({
            servers: [`127.0.0.1:${port}`],
            timeout: Duration.millis(200),
            tries: 1
          })
          const started = Date.now()
          const outcome = yield* send(
            { ...production, resolve: resolver.addresses },
            requestTo("https://hooks.example.com/")
          )
          expect(outcome).toEqual({ _tag: "Unreachable", reason: "dns_error" })
          // Within the resolver's timeout, long before the delivery's.
          expect(Date.now() - started).toBeLessThan(3_000)
        }).pipe(Effect.scoped)
    )
  })

  describe("addresses", () => {
    it.live(
      "with private addresses refused, a name resolving to loopback is a refused_address and never connected to",
      () =>
        Effect.gen(function* () {
          const certificate = yield* TestReceiver.selfSigned("localhost")
          const receiver = yield* TestReceiver.start(ok, certificate)

          const outcome = yield* send(
            { ...production, ca: certificate.certificatePem },
            requestTo(`https://localhost:${receiver.port}/`)
          )

          expect(outcome).toEqual({ _tag: "Unreachable", reason: "refused_address" })
          expect(receiver.connections()).toBe(0)
        })
    )

    it.live(
      "with private addresses refused, loopback IP literals are a refused_address and never connected to",
      () =>
        Effect.gen(function* () {
          const receiver = yield* TestReceiver.start(ok)
          for (const host of ["127.0.0.1", "[::ffff:127.0.0.1]", "[::1]", "127.1.2.3", "2130706433"]) {
            const outcome = yield* send(production, requestTo(`https://${host}:${receiver.port}/`))
            expect(outcome).toEqual({ _tag: "Unreachable", reason: "refused_address" })
          }
          expect(receiver.connections()).toBe(0)
        })
    )

    it.live("with private addresses refused, ONE refused address among public ones is enough to refuse", () =>
      Effect.gen(function* () {
        for (const [refused] of [
          ["10.1.2.3", "private"],
          ["192.168.0.10", "private"],
          ["172.16.5.4", "private"],
          ["100.64.0.1", "carrier-grade-nat"],
          ["169.254.169.254", "link-local"],
          ["0.0.0.0", "unspecified"],
          ["224.0.0.1", "multicast"],
          ["::1", "loopback"],
          ["::", "unspecified"],
          ["fd00::1", "unique-local"],
          ["fe80::1", "link-local"],
          ["::ffff:10.0.0.1", "private"],
          ["::ffff:127.0.0.1", "loopback"],
          ["64:ff9b::a9fe:a9fe", "link-local"]
        ] as const) {
          // Public addresses first: a sender that checked only the first would connect (and be Unreachable here).
          const outcome = yield* send(
            { ...production, resolve: records("1.1.1.1", "2606:4700:4700::1111", refused) },
            requestTo("https://hooks.example.com/")
          )
          // The reason only: not the address, nor what kind of network it belongs to.
          expect(outcome).toEqual({ _tag: "Unreachable", reason: "refused_address" })
        }
      })
    )

    it.live(
      "with private addresses refused, an http URL is a refused_address before anything is resolved",
      () =>
        Effect.gen(function* () {
          let resolved = 0
          const outcome = yield* send(
            {
              ...production,
              resolve: () => {
                resolved += 1
                return records("1.1.1.1")("hooks.example.com")
              }
            },
            requestTo("http://hooks.example.com/")
          )
          expect(outcome).toEqual({ _tag: "Unreachable", reason: "refused_address" })
          expect(resolved).toBe(0)
        })
    )

    it.live("the vetted address is the one connected to: the name is resolved once and stays the Host", () =>
      Effect.gen(function* () {
        const receiver = yield* TestReceiver.start(ok)
        const asked: Array<string> = []
        const outcome = yield* send(
          {
            ...allowPrivate,
            // A name the system cannot resolve: only the sender's own lookup knows it.
            resolve: (hostname) => {
              asked.push(hostname)
              return records("127.0.0.1")(hostname)
            }
          },
          requestTo(`http://hooks.petstore.invalid:${receiver.port}/in`)
        )

        expect(outcome).toEqual({ _tag: "Delivered", status: 204 })
        expect(asked).toEqual(["hooks.petstore.invalid"])
        expect(receiver.requests().map(({ headers }) => headers.host)).toEqual([
          `hooks.petstore.invalid:${receiver.port}`
        ])
      })
    )

    it.live("when several addresses are vetted, the next is tried when one refuses the connection", () =>
      Effect.gen(function* () {
        const receiver = yield* TestReceiver.start(ok)
        const outcome = yield* send(
          { ...allowPrivate, resolve: records("127.0.0.2", "127.0.0.1") },
          requestTo(`http://hooks.petstore.invalid:${receiver.port}/`)
        )
        expect(outcome).toEqual({ _tag: "Delivered", status: 204 })
      })
    )
  })

  describe("HTTPS", () => {
    it.live("a self-signed certificate is Unreachable (TLS) unless its CA is trusted", () =>
      Effect.gen(function* () {
        const certificate = yield* TestReceiver.selfSigned("localhost")
        const receiver = yield* TestReceiver.start(ok, certificate)
        const url = `https://localhost:${receiver.port}/secure`

        const untrusted = yield* send(allowPrivate, requestTo(url))
        expect(untrusted).toEqual({ _tag: "Unreachable", reason: "tls_error" })
        expect(receiver.requests()).toEqual([])

        const trusted = yield* send({ ...allowPrivate, ca: certificate.certificatePem }, requestTo(url))
        expect(trusted).toEqual({ _tag: "Delivered", status: 204 })
        const [received] = receiver.requests()
        expect(received?.servername).toBe("localhost")
        expect(received?.headers.host).toBe(`localhost:${receiver.port}`)
        expect(received?.path).toBe("/secure")
      })
    )

    it.live("the certificate is checked against the URL's name, not the address connected to", () =>
      Effect.gen(function* () {
        const certificate = yield* TestReceiver.selfSigned("hooks.petstore.invalid")
        const receiver = yield* TestReceiver.start(ok, certificate)
        const options = {
          ...allowPrivate,
          ca: certificate.certificatePem,
          resolve: records("127.0.0.1")
        }

        const byName = yield* send(options, requestTo(`https://hooks.petstore.invalid:${receiver.port}/`))
        expect(byName).toEqual({ _tag: "Delivered", status: 204 })
        expect(receiver.requests()[0]?.servername).toBe("hooks.petstore.invalid")

        const byAddress = yield* send(options, requestTo(`https://127.0.0.1:${receiver.port}/`))
        expect(byAddress).toEqual({ _tag: "Unreachable", reason: "tls_error" })
        expect(receiver.requests()).toHaveLength(1)
      })
    )
  })

  describe("requests it cannot send", () => {
    it.live("a secret the signing library rejects, or none, sends nothing", () =>
      Effect.gen(function* () {
        const receiver = yield* TestReceiver.start(ok)
        for (const secrets of [["whsec_"], [newSecret(), "whsec_"], []]) {
          const outcome = yield* send(
            allowPrivate,
            requestTo(`http://127.0.0.1:${receiver.port}/`, { secrets })
          )
          expect(outcome).toEqual({ _tag: "Unreachable", reason: "connection_error" })
        }
        expect(receiver.connections()).toBe(0)
      })
    )

    it.live("a webhook-id that cannot be a header value sends nothing", () =>
      Effect.gen(function* () {
        const receiver = yield* TestReceiver.start(ok)
        const outcome = yield* send(
          allowPrivate,
          requestTo(`http://127.0.0.1:${receiver.port}/`, { webhookId: "evt_1\r\nx-injected: yes" })
        )
        expect(outcome).toEqual({ _tag: "Unreachable", reason: "connection_error" })
        expect(receiver.connections()).toBe(0)
      })
    )

    it.live("a URL the rule refuses (not a URL, credentials, a private name) opens nothing", () =>
      Effect.gen(function* () {
        for (const url of ["not a url", "https://user:pass@hooks.example.com/", "ftp://hooks.example.com/"]) {
          expect(yield* send(allowPrivate, requestTo(url))).toEqual({
            _tag: "Unreachable",
            reason: "refused_address"
          })
        }
        let resolved = 0
        const counting: NodeWebhookSender.Resolve = (name) => {
          resolved += 1
          return records("1.1.1.1")(name)
        }
        const outcome = yield* send(
          { ...production, resolve: counting },
          requestTo("https://hooks.internal/")
        )
        expect(outcome).toEqual({ _tag: "Unreachable", reason: "refused_address" })
        expect(resolved).toBe(0)
      })
    )

    it("a timeout that is not a positive duration is a defect of the layer", async () => {
      const exit = await Effect.runPromiseExit(
        send({ allowPrivate: true, timeout: Duration.zero }, requestTo("https://hooks.example.com/"))
      )
      expect(exit._tag).toBe("Failure")
    })
  })
})
