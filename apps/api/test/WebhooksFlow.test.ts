/**
 * Webhooks (contract section 5) end to end, through the BUILT processes asking a real DNS server
 * (pebble-challtestsrv), with receivers on loopback that verify each delivery's Standard Webhooks
 * signature with the maintained `standardwebhooks` library, as a customer's would:
 * - the API on its embedded default (its own delivery loop) with `PETSTORE_WEBHOOK_ALLOW_PRIVATE=true`:
 *   a domain's whole life reaches the receiver in order (a CAA record blocking the CA, and its
 *   clearing by Re-verify, included), a delivery that fails is retried with the same `webhook-id`
 *   and holds back the later events of its hostname, and a receiver answering 500 three times gets
 *   the event on the 4th attempt, each attempt listed;
 * - the worker process beside an API on PostgreSQL: a worker killed (SIGKILL) during a delivery loses
 *   no event, another delivers it once the lease expired;
 * - the API with the production default: a name that resolves to a private address is refused at
 *   delivery time without a connection, recorded as `refused_address` and nothing more, and every
 *   route refuses bad input with the contract's body, hides another account's project and shows the
 *   secret only once.
 * Nothing here is ever sent outside loopback.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, layer, it as plainIt } from "@effect/vitest"
import { Challtestsrv, challtestsrvLayer } from "@petstore/dns/testing"
import { Duration, Effect, Layer, Schedule } from "effect"
import { Webhook } from "standardwebhooks"
import { cleanUp, freshDatabase, startServer, temporaryDirectory } from "./support/ApiProcess.js"
import { BuiltApi, builtApiLayer, processPlatform } from "./support/BuiltApiServer.js"
import {
  addDomain,
  certificateProblemCodes,
  type DomainBody,
  domainOnce,
  domainPath,
  expectError,
  expectOk,
  readyProject,
  reverify,
  send
} from "./support/DomainFlow.js"
import { sharedEnv, startPostgresApi, workerSpawner } from "./support/WebhookProcesses.js"
import {
  type ReceivedRequest,
  startConnectionCounter,
  startReceiver,
  verifiedEvent
} from "./support/WebhookReceiver.js"

afterAll(cleanUp)

interface WebhookBody {
  readonly id: string
  readonly url: string
  readonly events: ReadonlyArray<string> | null
  readonly status: "enabled" | "disabled"
  readonly disabledAt: string | null
  readonly disabledReason: string | null
  readonly createdAt: string
}
interface CreatedWebhookBody extends WebhookBody {
  readonly secret: string
}
interface AttemptBody {
  readonly eventId: string
  readonly attempt: number
  readonly status: "delivered" | "retrying" | "failed"
  readonly httpStatus: number | null
  readonly error: string | null
  readonly at: string
}
interface EventBody {
  readonly id: string
  readonly type: string
  readonly occurredAt: string
  readonly projectId: string
  readonly hostname: string
  readonly data: DomainBody
}

const webhooksPath = (projectId: string) => `/v1/projects/${projectId}/webhooks`
const webhookPath = (projectId: string, id: string) => `${webhooksPath(projectId)}/${id}`
const deliveriesPath = (projectId: string, id: string) => `${webhookPath(projectId, id)}/deliveries`

const createWebhook = (projectId: string, body: unknown) =>
  Effect.map(send("POST", webhooksPath(projectId), { body }), (answer) => {
    const created = expectOk<CreatedWebhookBody>(answer, 201)
    expect(Object.keys(created).sort()).toEqual([
      "createdAt",
      "disabledAt",
      "disabledReason",
      "events",
      "id",
      "secret",
      "status",
      "url"
    ])
    return created
  })

const eventsOf = (projectId: string) =>
  Effect.map(send("GET", `/v1/projects/${projectId}/events?limit=100`), (answer) =>
    expectOk<ReadonlyArray<EventBody>>(answer)
  )

const attemptsOf = (projectId: string, id: string) =>
  Effect.map(send("GET", deliveriesPath(projectId, id)), (answer) => {
    const body = expectOk<{ readonly deliveries: ReadonlyArray<AttemptBody> }>(answer)
    expect(Object.keys(body)).toEqual(["deliveries"])
    return body.deliveries
  })

/** The attempts once `done` holds for them, polled every 100 ms for at most `within`. */
const attemptsOnce = (
  projectId: string,
  id: string,
  done: (attempts: ReadonlyArray<AttemptBody>) => boolean,
  within: Duration.Input = "20 seconds"
) =>
  attemptsOf(projectId, id).pipe(
    Effect.filterOrFail(done, () => "not yet" as const),
    Effect.retry(Schedule.spaced("100 millis")),
    Effect.timeoutOrElse({
      duration: within,
      orElse: () =>
        Effect.flatMap(attemptsOf(projectId, id), (attempts) =>
          Effect.fail(
            new Error(
              `the attempts did not come within ${Duration.format(Duration.fromInputUnsafe(within))}: ${JSON.stringify(attempts)}`
            )
          )
        )
    })
  )

const webhookIdOf = (request: ReceivedRequest) => request.headers["webhook-id"]
const eventOf = (request: ReceivedRequest) => JSON.parse(request.body) as EventBody

/**
 * What a receiver that checks signatures sees of `request`: POSTed JSON, signed with `secret` (the
 * library throws on anything else), its `webhook-id` the event's id.
 */
const expectSignedDelivery = (secret: string, request: ReceivedRequest) => {
  expect(request.method).toBe("POST")
  expect(request.path).toBe("/hooks")
  expect(request.headers["content-type"]).toBe("application/json")
  expect(request.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/)
  expect(request.headers["webhook-timestamp"]).toMatch(/^[0-9]+$/)
  expect(Math.abs(Number(request.headers["webhook-timestamp"]) * 1000 - request.at)).toBeLessThan(5_000)
  const event = verifiedEvent(secret, request) as EventBody
  expect(event).toEqual(eventOf(request))
  expect(webhookIdOf(request)).toBe(event.id)
  return event
}

/** The same request does not verify with another secret, nor with its body changed. */
const expectSignatureBinds = (secret: string, request: ReceivedRequest) => {
  const otherSecret = `whsec_${Buffer.alloc(32, 7).toString("base64")}`
  expect(() => new Webhook(otherSecret).verify(request.body, request.headers)).toThrow()
  expect(() =>
    verifiedEvent(secret, { ...request, body: request.body.replace('"type":"', '"type":"x') })
  ).toThrow()
  const otherId = `${request.headers["webhook-id"]}0`
  expect(() =>
    verifiedEvent(secret, { ...request, headers: { ...request.headers, "webhook-id": otherId } })
  ).toThrow()
}

const withoutTime = ({ at: _at, ...attempt }: AttemptBody) => attempt

const apiWith = (env: Record<string, string>) =>
  Layer.unwrap(Effect.map(Challtestsrv, (dns) => builtApiLayer(dns.server, env)))

// One pebble-challtestsrv for the whole file (a second start in one process usually fails).
layer(challtestsrvLayer, { timeout: 30_000, excludeTestServices: true })("webhooks end to end", (it) => {
  it.layer(apiWith({ PETSTORE_WEBHOOK_ALLOW_PRIVATE: "true", PETSTORE_WEBHOOK_RETRY_BASE: "200 millis" }), {
    timeout: 120_000
  })("the built API on its embedded default, private addresses allowed", (it) => {
    it.effect(
      "a domain's life reaches the receiver in order, signed; a failed delivery is retried with the same webhook-id, the later events waiting for it",
      () =>
        Effect.gen(function* () {
          const dns = yield* Challtestsrv
          const hostname = "docs.webhooks-flow.com"
          yield* readyProject("hooked")
          let verifiedAnswers = 0
          const receiver = yield* startReceiver((request) => {
            // The first attempt at domain.verified fails; the events after it must wait for its retry.
            if (eventOf(request).type === "domain.verified" && verifiedAnswers++ === 0) return 503
            return 204
          })
          const webhook = yield* createWebhook("hooked", { url: receiver.url })
          expect(webhook).toMatchObject({ url: receiver.url, events: null })

          yield* dns.setCname(hostname, processPlatform.cnameTarget)
          expectOk(yield* addDomain("hooked", hostname), 201)
          yield* domainOnce(
            "hooked",
            hostname,
            (domain) => domain.certificate.status === "issued",
            "30 seconds"
          )
          expect((yield* send("DELETE", domainPath("hooked", hostname))).status).toBe(204)

          const events = yield* eventsOf("hooked")
          expect(
            events.map((event) => event.type).filter((type) => type !== "domain.problems_changed")
          ).toEqual(["domain.added", "domain.verified", "certificate.issued", "domain.removed"])
          const verified = events.find((event) => event.type === "domain.verified")
          // Every event, once each, and the failed one twice: in the order they happened.
          const expectedIds = events.flatMap((event) =>
            event.id === verified?.id ? [event.id, event.id] : [event.id]
          )
          const requests = yield* receiver.requestsOnce((got) => got.length >= expectedIds.length)
          expect(requests.map(webhookIdOf)).toEqual(expectedIds)
          for (const request of requests) {
            const event = expectSignedDelivery(webhook.secret, request)
            // The event exactly as the API lists it.
            expect(event).toEqual(events.find((listed) => listed.id === event.id))
          }
          const [first] = requests
          if (first !== undefined) expectSignatureBinds(webhook.secret, first)
          const retried = requests.filter((request) => webhookIdOf(request) === verified?.id)
          expect(retried).toHaveLength(2)
          expect(retried[0]?.body).toBe(retried[1]?.body)

          // Newest first: each event's attempts, the failed one with what the receiver answered.
          const attempts = yield* attemptsOnce(
            "hooked",
            webhook.id,
            (got) => got.length === expectedIds.length
          )
          expect(attempts.map(withoutTime)).toEqual(
            [...expectedIds].reverse().map((eventId, n, reversed) => {
              const isRetry = eventId === verified?.id && reversed[n + 1] === eventId
              const isFailure = eventId === verified?.id && !isRetry
              return {
                eventId,
                attempt: isRetry ? 2 : 1,
                status: isFailure ? "retrying" : "delivered",
                httpStatus: isFailure ? 503 : 204,
                error: isFailure ? "http_503" : null
              }
            })
          )
          // Nothing more comes: every delivery is done.
          yield* Effect.sleep("1 second")
          expect(receiver.requests()).toHaveLength(expectedIds.length)
        }).pipe(Effect.scoped),
      120_000
    )

    it.effect(
      "a CAA record forbidding the CA reaches the receiver as the problem it makes; removed + Re-verify: the problem cleared, the issue, the removal, in order, signed, nothing else",
      () =>
        Effect.gen(function* () {
          const dns = yield* Challtestsrv
          const apex = "caa-hooks-flow.com"
          const hostname = `docs.${apex}`
          yield* readyProject("caa-hooked")
          const receiver = yield* startReceiver()
          const webhook = yield* createWebhook("caa-hooked", { url: receiver.url })

          yield* dns.setCname(hostname, processPlatform.cnameTarget)
          // The processes' CA is not the one this record allows.
          yield* dns.addCaa(apex, [{ tag: "issue", value: "other-ca.example" }])
          expectOk(yield* addDomain("caa-hooked", hostname), 201)
          const blocked = yield* domainOnce(
            "caa-hooked",
            hostname,
            (domain) => domain.certificate.problems.length > 0,
            "20 seconds"
          )
          expect(blocked.status).toBe("verified")
          expect(blocked.certificate.status).toBe("pending")
          expect(certificateProblemCodes(blocked)).toEqual(["caa_blocks_issuer"])

          // The owner is told of the block before doing anything about it.
          const told = yield* receiver.requestsOnce((got) => got.length >= 3)
          expect(told.map((request) => eventOf(request).type)).toEqual([
            "domain.added",
            "domain.verified",
            "domain.problems_changed"
          ])
          const [, , blockRequest] = told
          if (blockRequest === undefined) return expect.fail("three deliveries were expected")
          const block = expectSignedDelivery(webhook.secret, blockRequest)
          expect(block.data.status).toBe("verified")
          expect(block.data.certificate.status).toBe("pending")
          expect(certificateProblemCodes(block.data)).toEqual(["caa_blocks_issuer"])
          expect(block.data.certificate.problems[0]?.found).toEqual(['0 issue "other-ca.example"'])

          // The owner removes the record and clicks Re-verify.
          yield* dns.clearCaa(apex)
          const restarted = expectOk<DomainBody>(yield* reverify("caa-hooked", hostname))
          expect(restarted.certificate).toMatchObject({ status: "pending", problems: [] })
          yield* domainOnce(
            "caa-hooked",
            hostname,
            (domain) => domain.certificate.status === "issued",
            "30 seconds"
          )
          expect((yield* send("DELETE", domainPath("caa-hooked", hostname))).status).toBe(204)

          const events = yield* eventsOf("caa-hooked")
          expect(events.map((event) => event.type)).toEqual([
            "domain.added",
            "domain.verified",
            "domain.problems_changed",
            "domain.problems_changed",
            "certificate.issued",
            "domain.removed"
          ])
          const [, , blockedEvent, clearedEvent, issuedEvent] = events
          expect(blockedEvent?.id).toBe(block.id)
          expect(clearedEvent?.data.certificate).toMatchObject({ status: "pending", problems: [] })
          expect(issuedEvent?.data.certificate).toMatchObject({ status: "issued", problems: [] })
          // Every event once, in the order the API lists them, each signed: nothing else.
          const requests = yield* receiver.requestsOnce((got) => got.length >= events.length)
          expect(requests.map(webhookIdOf)).toEqual(events.map((event) => event.id))
          for (const request of requests) {
            const event = expectSignedDelivery(webhook.secret, request)
            expect(event).toEqual(events.find((listed) => listed.id === event.id))
          }
          yield* Effect.sleep("1 second")
          expect(receiver.requests()).toHaveLength(events.length)
        }).pipe(Effect.scoped),
      120_000
    )

    it.effect(
      "a receiver answering 500 three times gets the event on the 4th attempt, retries further and further apart",
      () =>
        Effect.gen(function* () {
          yield* readyProject("retried")
          const receiver = yield* startReceiver((_request, n) => (n < 3 ? 500 : 200))
          const webhook = yield* createWebhook("retried", { url: receiver.url, events: ["domain.added"] })
          expect(webhook.events).toEqual(["domain.added"])
          // No DNS record: the worker's checks make other events, which this webhook does not ask for.
          expectOk(yield* addDomain("retried", "docs.retry-flow.com"), 201)

          const requests = yield* receiver.requestsOnce((got) => got.length >= 4)
          const [added] = (yield* eventsOf("retried")).filter((event) => event.type === "domain.added")
          for (const request of requests) {
            expect(expectSignedDelivery(webhook.secret, request).id).toBe(added?.id)
          }
          const attempts = yield* attemptsOnce("retried", webhook.id, (got) => got.length === 4)
          expect(attempts.map(withoutTime)).toEqual([
            { eventId: added?.id, attempt: 4, status: "delivered", httpStatus: 200, error: null },
            ...[3, 2, 1].map((attempt) => ({
              eventId: added?.id,
              attempt,
              status: "retrying",
              httpStatus: 500,
              error: "http_500"
            }))
          ])
          // Attempt n+1 starts 200 ms × 2^(n−1) (±20%) after attempt n: never sooner, and soon after.
          const times = attempts.map((attempt) => Date.parse(attempt.at)).reverse()
          for (let n = 1; n < times.length; n++) {
            const nominal = 200 * 2 ** (n - 1)
            const gap = (times[n] ?? 0) - (times[n - 1] ?? 0)
            expect(gap, `between attempts ${n} and ${n + 1}`).toBeGreaterThanOrEqual(0.8 * nominal)
            expect(gap, `between attempts ${n} and ${n + 1}`).toBeLessThan(1.2 * nominal + 2_000)
          }
          yield* Effect.sleep("1 second")
          expect(receiver.requests()).toHaveLength(4)
        }).pipe(Effect.scoped),
      60_000
    )
  })

  it.layer(apiWith({ PETSTORE_WEBHOOK_RETRY_BASE: "200 millis" }), { timeout: 120_000 })(
    "the built API with the production default: private addresses refused",
    (it) => {
      it.effect(
        "a name that resolves to a private address is a refused_address attempt, naming no address, and the receiver sees no connection",
        () =>
          Effect.gen(function* () {
            const dns = yield* Challtestsrv
            yield* readyProject("guarded")
            const counter = yield* startConnectionCounter
            // A public name, accepted at creation, that resolves to loopback and a private address.
            const name = "hooks.guarded-flow.com"
            yield* dns.addA(name, ["127.0.0.1", "10.20.30.40"])
            const url = `https://${name}:${counter.port}/hooks`
            const webhook = yield* createWebhook("guarded", { url, events: ["domain.added"] })
            expectOk(yield* addDomain("guarded", "docs.guarded-flow.com"), 201)

            // Retried, as names change; each attempt refused before any connection.
            const attempts = yield* attemptsOnce("guarded", webhook.id, (got) => got.length >= 3)
            for (const attempt of attempts) {
              expect(attempt).toMatchObject({
                status: "retrying",
                httpStatus: null,
                error: "refused_address"
              })
            }
            // Nothing of the internal network reaches the owner: no address, in any answer.
            const answers = yield* Effect.forEach(
              [deliveriesPath("guarded", webhook.id), webhookPath("guarded", webhook.id)],
              (path) => send("GET", path)
            )
            for (const answer of answers) {
              expect(JSON.stringify(answer.body)).not.toMatch(/127\.0\.0\.1|10\.20\.30\.40|loopback|private/)
            }
            expect(counter.connections()).toBe(0)
            // A name no DNS answers is a dns_error, with no resolver's words.
            const nowhere = yield* createWebhook("guarded", {
              url: "https://nowhere.guarded-flow.com/hooks",
              events: ["domain.added"]
            })
            expectOk(yield* addDomain("guarded", "www.guarded-flow.com"), 201)
            const failed = yield* attemptsOnce("guarded", nowhere.id, (got) => got.length >= 1)
            expect(failed[0]).toMatchObject({ status: "retrying", httpStatus: null, error: "dns_error" })
          }).pipe(Effect.scoped),
        60_000
      )

      it.effect("bad input on every route is refused with the contract's body, and nothing is created", () =>
        Effect.gen(function* () {
          yield* readyProject("strict")
          const refusals: ReadonlyArray<readonly [unknown, string | RegExp]> = [
            [{ url: "http://hooks.example.com/in" }, "url: must use https"],
            [
              { url: "https://user:pass@hooks.example.com/in" },
              "url: must not contain a user name or password"
            ],
            [{ url: "https://127.0.0.1:8443/in" }, "url: must not be a loopback address (127.0.0.1)"],
            [{ url: "https://[::1]/in" }, "url: must not be a loopback address (::1)"],
            [{ url: "https://10.0.0.1/in" }, "url: must not be a private address (10.0.0.1)"],
            [{ url: "https://172.16.5.4/in" }, "url: must not be a private address (172.16.5.4)"],
            [{ url: "https://192.168.1.1/in" }, "url: must not be a private address (192.168.1.1)"],
            [
              { url: "https://169.254.169.254/in" },
              "url: must not be a link-local address (169.254.169.254)"
            ],
            [{ url: "https://[fe80::1]/in" }, "url: must not be a link-local address (fe80::1)"],
            [{ url: "https://[fd00::1]/in" }, "url: must not be a unique local address (fd00::1)"],
            [{ url: "https://0x7f000001/in" }, "url: must not be a loopback address (127.0.0.1)"],
            ...[
              "https://localhost/in",
              "https://hooks/in",
              "https://hooks.internal/in",
              "https://hooks.corp/in"
            ].map((url): readonly [unknown, string] => [
              { url },
              "url: must name a host under a public suffix (such as hooks.example.com) or a public IP address"
            ]),
            [{ url: "hooks.example.com/in" }, "url: must be a URL such as https://example.com/webhooks"],
            [{ url: "not a url" }, "url: must be a URL such as https://example.com/webhooks"],
            [
              { url: "https://hooks.example.com/in", events: ["domain.deleted"] },
              /^events\.0: must be one of domain\.added, /
            ],
            [
              { url: "https://hooks.example.com/in", events: [] },
              "events: must name at least one event type, or be left out for all of them"
            ],
            [{ events: ["domain.added"] }, "url: is required"]
          ]
          for (const [body, message] of refusals) {
            expectError(
              yield* send("POST", webhooksPath("strict"), { body }),
              400,
              "invalid_request",
              message
            )
          }
          const huge = JSON.stringify({ url: `https://hooks.example.com/${"x".repeat(65 * 1024)}` })
          expectError(yield* send("POST", webhooksPath("strict"), { body: huge }), 413, "payload_too_large")
          expectError(
            yield* send("POST", webhooksPath("strict"), {
              body: "url=https://hooks.example.com/in",
              headers: { "content-type": "application/x-www-form-urlencoded" }
            }),
            415,
            "unsupported_media_type"
          )
          expectError(
            yield* send("POST", webhooksPath("strict"), { body: '{"url":' }),
            400,
            "invalid_request"
          )
          expectError(
            yield* send("POST", webhooksPath("strict"), {
              body: { url: "https://hooks.example.com/in" },
              as: "nobody"
            }),
            401,
            "unauthorized"
          )
          expect(expectOk(yield* send("GET", webhooksPath("strict")))).toEqual({ webhooks: [] })

          // Another account's project, and its webhook, read as none on every route.
          const webhook = yield* createWebhook("strict", { url: "https://hooks.example.com/in" })
          const routes: ReadonlyArray<readonly [string, string, unknown?]> = [
            ["POST", webhooksPath("strict"), { url: "https://hooks.example.com/bob" }],
            ["GET", webhooksPath("strict")],
            ["GET", webhookPath("strict", webhook.id)],
            ["DELETE", webhookPath("strict", webhook.id)],
            ["PATCH", webhookPath("strict", webhook.id), { status: "enabled" }],
            ["POST", `${webhookPath("strict", webhook.id)}/rotate-secret`],
            ["GET", deliveriesPath("strict", webhook.id)]
          ]
          for (const [method, path, body] of routes) {
            expectError(
              yield* send(method, path, body === undefined ? { as: "bob" } : { body, as: "bob" }),
              404,
              "not_found",
              'no project "strict"'
            )
          }
          for (const id of ["wh_nope", "wh_aaaaaaaaaaaaaaaaaaaaaaaaaa"]) {
            for (const path of [webhookPath("strict", id), deliveriesPath("strict", id)]) {
              expectError(yield* send("GET", path), 404, "not_found", `no webhook "${id}" in this project`)
            }
          }
          // Still alice's, untouched by bob.
          expect(
            expectOk<{ webhooks: ReadonlyArray<WebhookBody> }>(yield* send("GET", webhooksPath("strict")))
              .webhooks
          ).toHaveLength(1)

          // The secret is in the 201 only: no other answer, and no log line, shows it.
          const answers = yield* Effect.forEach(
            [webhooksPath("strict"), webhookPath("strict", webhook.id), deliveriesPath("strict", webhook.id)],
            (path) => send("GET", path)
          )
          for (const answer of answers) {
            expect(answer.status).toBe(200)
            expect(JSON.stringify(answer.body)).not.toContain(webhook.secret)
            expect(JSON.stringify(answer.body)).not.toContain("whsec_")
          }
          const one = expectOk<WebhookBody>(answers[1] ?? { status: 0, contentType: null, body: null })
          expect(one).toEqual({
            id: webhook.id,
            url: webhook.url,
            events: null,
            status: "enabled",
            disabledAt: null,
            disabledReason: null,
            createdAt: webhook.createdAt
          })
          const api = yield* BuiltApi
          expect(api.stdout()).not.toContain(webhook.secret)
          expect((yield* send("DELETE", webhookPath("strict", webhook.id))).status).toBe(204)
          expectError(yield* send("DELETE", webhookPath("strict", webhook.id)), 404, "not_found")
        })
      )
    }
  )

  describe("the worker process beside an API on PostgreSQL", () => {
    const startWorker = workerSpawner()

    it.effect(
      "a worker killed during a delivery loses no event: another delivers it, same webhook-id, once the lease expired",
      () =>
        Effect.gen(function* () {
          const dns = yield* Challtestsrv
          const database = yield* Effect.promise(freshDatabase)
          const shared = sharedEnv(dns.server, database.url, "webhooks flow")
          const workerEnv = {
            ...shared,
            PETSTORE_WORKER_POLL_INTERVAL: "100 millis",
            // Delivery leases last two send timeouts at least (20 s), whatever this says.
            PETSTORE_WORKER_LEASE: "5 seconds"
          }
          const { call: request, server } = yield* Effect.promise(() => startPostgresApi(shared))
          const call = (method: string, path: string, body?: object) =>
            Effect.promise(() => request(method, path, body))
          // The first request hangs (the worker is killed while it waits); later ones are answered.
          const receiver = yield* startReceiver((_request, n) => (n === 0 ? "hang" : 204))
          expect((yield* call("POST", "/v1/projects", { id: "ops", plan: "pro" })).status).toBe(201)
          expect((yield* call("POST", "/v1/projects/ops/deploys", { status: "succeeded" })).status).toBe(201)
          const created = yield* call("POST", "/v1/projects/ops/webhooks", {
            url: receiver.url,
            events: ["domain.added"]
          })
          expect(created.status, created.text).toBe(201)
          const webhook = created.json() as CreatedWebhookBody

          const first = yield* startWorker(workerEnv)
          const added = yield* call("POST", "/v1/projects/ops/domains", {
            hostname: "docs.killed-worker.com"
          })
          expect(added.status, added.text).toBe(201)
          const [hung] = yield* receiver.requestsOnce((got) => got.length >= 1)
          first.child.kill("SIGKILL")
          expect(yield* Effect.promise(() => first.exited)).toEqual({ code: null, signal: "SIGKILL" })
          // Killed mid-delivery: nothing of the attempt was stored.
          const eventsAnswer = yield* call("GET", "/v1/projects/ops/events")
          const [event] = (eventsAnswer.json() as ReadonlyArray<EventBody>).filter(
            (listed) => listed.type === "domain.added"
          )
          expect((yield* call("GET", `/v1/projects/ops/webhooks/${webhook.id}/deliveries`)).json()).toEqual({
            deliveries: []
          })

          const second = yield* startWorker(workerEnv)
          const requests = yield* receiver.requestsOnce((got) => got.length >= 2, "45 seconds")
          const [, again] = requests
          if (hung === undefined || again === undefined) return expect.fail("two requests were expected")
          for (const request of [hung, again]) {
            expect(expectSignedDelivery(webhook.secret, request).id).toBe(event?.id)
          }
          // Not before the killed worker's lease (20 s, taken just before its request) expired.
          expect(again.at - hung.at).toBeGreaterThanOrEqual(19_000)
          const attempts = (yield* call(
            "GET",
            `/v1/projects/ops/webhooks/${webhook.id}/deliveries`
          )).json() as {
            readonly deliveries: ReadonlyArray<AttemptBody>
          }
          expect(attempts.deliveries.map(withoutTime)).toEqual([
            { eventId: event?.id, attempt: 1, status: "delivered", httpStatus: 204, error: null }
          ])
          yield* Effect.sleep("1 second")
          expect(receiver.requests()).toHaveLength(2)

          second.child.kill("SIGTERM")
          expect(yield* Effect.promise(() => second.exited)).toEqual({ code: 0, signal: null })
          expect(yield* Effect.promise(() => server.terminate())).toEqual({ code: 0, signal: null })
        }).pipe(Effect.scoped),
      120_000
    )
  })
})

describe("a bad webhook setting", () => {
  for (const [variable, value, reason] of [
    ["PETSTORE_WEBHOOK_ALLOW_PRIVATE", "yes", "must be true or false"],
    ["PETSTORE_WEBHOOK_ALLOW_PRIVATE", "1", "must be true or false"],
    ["PETSTORE_WEBHOOK_RETRY_BASE", "soon", undefined],
    ["PETSTORE_WEBHOOK_RETRY_BASE", "0 millis", "must be from 100 millis to 1 hour"],
    ["PETSTORE_WEBHOOK_RETRY_BASE", "2 hours", "must be from 100 millis to 1 hour"]
  ] as const) {
    plainIt(
      `${variable}=${value} stops the API at once, naming the variable, before touching storage`,
      async () => {
        const dataDir = join(await temporaryDirectory(), "data")
        const server = await startServer({ PETSTORE_DATA_DIR: dataDir, [variable]: value })
        const exit = await server.exited
        expect(exit.code, server.output()).not.toBe(0)
        expect(server.stdout() + server.stderr()).toContain(variable)
        if (reason !== undefined) expect(server.stdout() + server.stderr()).toContain(reason)
        expect(server.stdout()).not.toContain("petstore listening")
        expect(existsSync(dataDir)).toBe(false)
      },
      60_000
    )
  }
})
