/**
 * A project's webhooks (contract section 5) through a real server on the in-memory store: creation
 * answers the secret once and never again, URLs the delivery would refuse are refused at creation
 * (with the rule broken named), unknown event types too, another account's project and webhooks read
 * as none, and the attempts the worker's round makes (here with a scripted sender, on the same store)
 * are listed newest first, saying what each got.
 */
import { describe, expect, layer } from "@effect/vitest"
import type { DueCheckRound, StorageError } from "@petstore/kernel"
import { MemoryStore } from "@petstore/store-memory"
import {
  deliverDueWebhooks,
  type SendOutcome,
  type WebhookDeliveryRepository,
  type WebhookRequest,
  WebhookSender
} from "@petstore/webhooks"
import { Context, Effect, Layer } from "effect"
import { EmptyDns, expectError, json, jsonPost, TestServer, TestServerLive } from "./support/TestServer.js"

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
  readonly status: string
  readonly httpStatus: number | null
  readonly error: string | null
  readonly at: string
}

type Caller = "alice" | "bob"

const send = (path: string, init: RequestInit = {}, as: Caller = "alice") =>
  Effect.flatMap(TestServer, (server) =>
    server.request(path, { ...init, key: as === "bob" ? server.otherKey : server.key })
  )

const webhooksPath = (projectId: string) => `/v1/projects/${projectId}/webhooks`
const webhookPath = (projectId: string, id: string) => `${webhooksPath(projectId)}/${id}`
const createWebhook = (projectId: string, body: unknown, as?: Caller) =>
  send(webhooksPath(projectId), jsonPost(body), as)

const readyProject = (id: string, as: Caller = "alice") =>
  Effect.gen(function* () {
    expect((yield* send("/v1/projects", jsonPost({ id, plan: "pro" }), as)).status).toBe(201)
    expect((yield* send(`/v1/projects/${id}/deploys`, jsonPost({ status: "succeeded" }), as)).status).toBe(
      201
    )
  })

const expectCreated = (response: Response) =>
  Effect.gen(function* () {
    const body = (yield* json(response)) as CreatedWebhookBody
    expect(response.status, JSON.stringify(body)).toBe(201)
    expect(Object.keys(body).sort()).toEqual([
      "createdAt",
      "disabledAt",
      "disabledReason",
      "events",
      "id",
      "secret",
      "status",
      "url"
    ])
    expect([body.status, body.disabledAt, body.disabledReason]).toEqual(["enabled", null, null])
    expect(body.id).toMatch(/^wh_[a-z2-7]{26}$/)
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    return body
  })

const expectInvalid = (response: Response, message: string) =>
  Effect.gen(function* () {
    expect((yield* expectError(response, 400, "invalid_request")).message).toBe(message)
  })

/** What the scripted sender was asked to send, and what it answers next (delivered, by default). */
const sent: Array<WebhookRequest> = []
const outcomes: Array<SendOutcome> = []
const ScriptedSender = Layer.succeed(WebhookSender, {
  send: (request) =>
    Effect.sync(() => {
      sent.push(request)
      return outcomes.shift() ?? { _tag: "Delivered", status: 204 }
    })
})

/** One round of the worker's deliveries, on the server's own store. */
class DeliveryRound extends Context.Service<DeliveryRound, Effect.Effect<DueCheckRound, StorageError>>()(
  "test/DeliveryRound"
) {}

// The same layer value twice: built once, so the round works on the store the server writes.
const store = MemoryStore.layer
/** A round that disables a webhook at its first failure (a disabling period of zero). */
class DisablingRound extends Context.Service<DisablingRound, Effect.Effect<DueCheckRound, StorageError>>()(
  "test/DisablingRound"
) {}

const roundOptions = {
  holder: "webhooks-test",
  batchSize: 10,
  lease: "30 seconds",
  // No wait between attempts: each round retries what the previous one failed.
  retryBase: "0 millis",
  disableAfter: "72 hours"
} as const

const rounds = Layer.effectContext(
  Effect.map(Effect.context<WebhookDeliveryRepository | WebhookSender>(), (context) =>
    Context.make(DeliveryRound, deliverDueWebhooks(roundOptions).pipe(Effect.provideContext(context))).pipe(
      Context.add(
        DisablingRound,
        deliverDueWebhooks({ ...roundOptions, disableAfter: "0 millis" }).pipe(Effect.provideContext(context))
      )
    )
  )
).pipe(Layer.provide(Layer.merge(store, ScriptedSender)))

const runRound = Effect.flatten(DeliveryRound)
const runDisablingRound = Effect.flatten(DisablingRound)

layer(Layer.mergeAll(TestServerLive(store, { dns: EmptyDns }), rounds), { excludeTestServices: true })(
  "webhooks",
  (it) => {
    it.effect("created with its secret, which no other answer shows; listed oldest first", () =>
      Effect.gen(function* () {
        yield* readyProject("hooks")
        const first = yield* expectCreated(
          yield* createWebhook("hooks", { url: "https://hooks.example.com/petstore?source=docs" })
        )
        expect(first).toMatchObject({ url: "https://hooks.example.com/petstore?source=docs", events: null })
        expect(Date.parse(first.createdAt)).not.toBeNaN()
        // Duplicates are kept once, in the order given; null is every type, as leaving it out.
        const second = yield* expectCreated(
          yield* createWebhook("hooks", {
            url: "https://other.example.com/h",
            events: ["domain.verified", "certificate.issued", "domain.verified"]
          })
        )
        expect(second.events).toEqual(["domain.verified", "certificate.issued"])
        const third = yield* expectCreated(
          yield* createWebhook("hooks", { url: "https://third.example.com/", events: null })
        )
        expect(third.events).toBeNull()
        expect(new Set([first.secret, second.secret, third.secret]).size).toBe(3)

        const listed = yield* send(webhooksPath("hooks"))
        const list = (yield* json(listed)) as { readonly webhooks: ReadonlyArray<WebhookBody> }
        expect(listed.status).toBe(200)
        expect(Object.keys(list)).toEqual(["webhooks"])
        const withoutSecret = ({ secret: _secret, ...rest }: CreatedWebhookBody) => rest
        expect(list.webhooks).toEqual([first, second, third].map(withoutSecret))
        const one = yield* send(webhookPath("hooks", second.id))
        expect(one.status).toBe(200)
        expect(yield* json(one)).toEqual(withoutSecret(second))
        const texts = yield* Effect.forEach(
          [
            webhooksPath("hooks"),
            webhookPath("hooks", first.id),
            `${webhookPath("hooks", first.id)}/deliveries`
          ],
          (path) => Effect.flatMap(send(path), (response) => Effect.promise(() => response.text()))
        )
        for (const text of texts) {
          for (const secret of [first.secret, second.secret, third.secret]) expect(text).not.toContain(secret)
          expect(text).not.toContain("whsec_")
        }
      })
    )

    it.effect("a URL the delivery would refuse is refused at creation, naming the rule", () =>
      Effect.gen(function* () {
        yield* readyProject("refusals")
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{ url: "http://hooks.example.com/h" }, "url: must use https"],
          [
            { url: "https://user:secret@hooks.example.com/h" },
            "url: must not contain a user name or password"
          ],
          [{ url: "https://:secret@hooks.example.com/h" }, "url: must not contain a user name or password"],
          [{ url: "not a url" }, "url: must be a URL such as https://example.com/webhooks"],
          [{ url: "" }, "url: must be a URL such as https://example.com/webhooks"],
          [{ url: "ftp://hooks.example.com/" }, "url: must use https"],
          [{ url: "https://127.0.0.1/h" }, "url: must not be a loopback address (127.0.0.1)"],
          [{ url: "https://2130706433/h" }, "url: must not be a loopback address (127.0.0.1)"],
          [{ url: "https://10.1.2.3/h" }, "url: must not be a private address (10.1.2.3)"],
          [{ url: "https://192.168.0.10:8443/h" }, "url: must not be a private address (192.168.0.10)"],
          [
            { url: "https://169.254.169.254/latest/meta-data" },
            "url: must not be a link-local address (169.254.169.254)"
          ],
          [{ url: "https://[::1]/h" }, "url: must not be a loopback address (::1)"],
          [{ url: "https://[fd12:3456::1]/h" }, "url: must not be a unique local address (fd12:3456::1)"],
          [
            { url: "https://[::ffff:10.0.0.1]/h" },
            expect.stringMatching(/^url: must not be a private address/) as never
          ],
          [{ url: "https://0.0.0.0/h" }, "url: must not be an unspecified address (0.0.0.0)"],
          ...[
            "https://localhost/h",
            "https://hooks/h",
            "https://hooks.internal/h",
            "https://ci.corp/h",
            "https://nas.lan/h",
            "https://printer.local/h"
          ].map((url): readonly [unknown, string] => [
            { url },
            "url: must name a host under a public suffix (such as hooks.example.com) or a public IP address"
          ]),
          [{ url: `https://hooks.example.com/${"a".repeat(2048)}` }, "url: must be at most 2048 characters"],
          [{}, "url: is required"],
          [{ url: 42 }, "url: Expected string"],
          [
            { url: "https://hooks.example.com/h", events: ["domain.exploded"] },
            expect.stringMatching(/^events\.0: must be one of domain\.added, domain\.verified, /) as never
          ],
          [
            { url: "https://hooks.example.com/h", events: [] },
            "events: must name at least one event type, or be left out for all of them"
          ],
          [
            { url: "https://hooks.example.com/h", events: "domain.added" },
            expect.stringMatching(/^events: /) as never
          ]
        ]
        for (const [body, message] of cases) {
          const response = yield* createWebhook("refusals", body)
          const error = yield* expectError(response, 400, "invalid_request")
          expect(error.message, JSON.stringify(body)).toEqual(message)
        }
        // Nothing was created by any of them.
        expect(yield* json(yield* send(webhooksPath("refusals")))).toEqual({ webhooks: [] })
      })
    )

    it.effect(
      "bodies are checked as everywhere: 413 past 64 KiB, 415 when not JSON, 400 when malformed",
      () =>
        Effect.gen(function* () {
          yield* readyProject("bodies")
          const huge = JSON.stringify({ url: `https://hooks.example.com/${"a".repeat(70 * 1024)}` })
          yield* expectError(yield* send(webhooksPath("bodies"), jsonPost(huge)), 413, "payload_too_large")
          yield* expectError(
            yield* send(webhooksPath("bodies"), {
              method: "POST",
              headers: { "content-type": "text/plain" },
              body: "https://hooks.example.com/h"
            }),
            415,
            "unsupported_media_type"
          )
          yield* expectError(yield* send(webhooksPath("bodies"), jsonPost('{"url":')), 400, "invalid_request")
          const unauthenticated = yield* Effect.flatMap(TestServer, (server) =>
            server.request(webhooksPath("bodies"), {
              ...jsonPost({ url: "https://h.example.com/" }),
              key: null
            })
          )
          yield* expectError(unauthenticated, 401, "unauthorized")
        })
    )

    it.effect("another account's project, and its webhooks, read as none on every route", () =>
      Effect.gen(function* () {
        yield* readyProject("private-hooks")
        const mine = yield* expectCreated(
          yield* createWebhook("private-hooks", { url: "https://h.example.com/" })
        )
        const notFound = (response: Response, message: string) =>
          Effect.gen(function* () {
            expect((yield* expectError(response, 404, "not_found")).message).toBe(message)
          })
        const noProject = 'no project "private-hooks"'
        yield* notFound(
          yield* createWebhook("private-hooks", { url: "https://h.example.com/" }, "bob"),
          noProject
        )
        yield* notFound(yield* send(webhooksPath("private-hooks"), {}, "bob"), noProject)
        yield* notFound(yield* send(webhookPath("private-hooks", mine.id), {}, "bob"), noProject)
        yield* notFound(
          yield* send(webhookPath("private-hooks", mine.id), { method: "DELETE" }, "bob"),
          noProject
        )
        yield* notFound(
          yield* send(`${webhookPath("private-hooks", mine.id)}/deliveries`, {}, "bob"),
          noProject
        )
        // Bob's own project does not reach alice's webhook either.
        yield* readyProject("bobs", "bob")
        const noWebhook = `no webhook ${JSON.stringify(mine.id)} in this project`
        yield* notFound(yield* send(webhookPath("bobs", mine.id), {}, "bob"), noWebhook)
        yield* notFound(yield* send(webhookPath("bobs", mine.id), { method: "DELETE" }, "bob"), noWebhook)
        yield* notFound(yield* send(`${webhookPath("bobs", mine.id)}/deliveries`, {}, "bob"), noWebhook)
        yield* notFound(yield* send(webhooksPath("no-such-project")), 'no project "no-such-project"')
        yield* notFound(yield* send(webhooksPath("Not A Project")), 'no project "Not A Project"')
        // Ids that cannot exist, and one that could but does not.
        for (const id of [
          "wh_short",
          "not-a-webhook",
          "WH_ABCDEFGHIJKLMNOPQRSTUVWXYZ",
          "wh_abcdefghijklmnopqrstuvwxyz"
        ]) {
          yield* notFound(
            yield* send(webhookPath("private-hooks", id)),
            `no webhook ${JSON.stringify(id)} in this project`
          )
        }
        // Still there for alice, then deleted once: a second delete finds nothing.
        expect((yield* send(webhookPath("private-hooks", mine.id))).status).toBe(200)
        expect((yield* send(webhookPath("private-hooks", mine.id), { method: "DELETE" })).status).toBe(204)
        yield* notFound(
          yield* send(webhookPath("private-hooks", mine.id)),
          `no webhook ${JSON.stringify(mine.id)} in this project`
        )
        yield* notFound(
          yield* send(webhookPath("private-hooks", mine.id), { method: "DELETE" }),
          `no webhook ${JSON.stringify(mine.id)} in this project`
        )
        yield* notFound(
          yield* send(`${webhookPath("private-hooks", mine.id)}/deliveries`),
          `no webhook ${JSON.stringify(mine.id)} in this project`
        )
      })
    )

    describe("the attempts", () => {
      it.effect("each attempt the round makes is listed, newest first, with what the receiver answered", () =>
        Effect.gen(function* () {
          yield* readyProject("attempts")
          const hook = yield* expectCreated(
            yield* createWebhook("attempts", {
              url: "https://hooks.example.com/attempts",
              events: ["domain.added"]
            })
          )
          const deliveries = `${webhookPath("attempts", hook.id)}/deliveries`
          expect(yield* json(yield* send(deliveries))).toEqual({ deliveries: [] })
          sent.length = 0
          outcomes.splice(
            0,
            outcomes.length,
            { _tag: "Rejected", status: 500 },
            { _tag: "Unreachable", reason: "connection_error" },
            { _tag: "Unreachable", reason: "refused_address" },
            { _tag: "Delivered", status: 200 }
          )
          const added = yield* send(
            "/v1/projects/attempts/domains",
            jsonPost({ hostname: "docs.attempts-hooks.com" })
          )
          expect(added.status).toBe(201)
          const [event] = (yield* json(yield* send("/v1/projects/attempts/events"))) as ReadonlyArray<{
            readonly id: string
            readonly type: string
          }>
          expect(event?.type).toBe("domain.added")

          for (let n = 0; n < 4; n++) expect((yield* runRound).claimed).toBe(1)
          // Delivered: nothing more is due.
          expect((yield* runRound).claimed).toBe(0)
          expect(sent).toHaveLength(4)
          for (const request of sent) {
            expect(request).toMatchObject({ url: hook.url, webhookId: event?.id, secrets: [hook.secret] })
            expect(JSON.parse(request.body)).toMatchObject({ id: event?.id, type: "domain.added" })
          }

          const listed = (yield* json(yield* send(deliveries))) as {
            readonly deliveries: ReadonlyArray<AttemptBody>
          }
          expect(listed.deliveries.map(({ at: _at, ...attempt }) => attempt)).toEqual([
            { eventId: event?.id, attempt: 4, status: "delivered", httpStatus: 200, error: null },
            {
              eventId: event?.id,
              attempt: 3,
              status: "retrying",
              httpStatus: null,
              error: "refused_address"
            },
            {
              eventId: event?.id,
              attempt: 2,
              status: "retrying",
              httpStatus: null,
              error: "connection_error"
            },
            {
              eventId: event?.id,
              attempt: 1,
              status: "retrying",
              httpStatus: 500,
              error: "http_500"
            }
          ])
          const times = listed.deliveries.map((attempt) => Date.parse(attempt.at))
          expect([...times].sort((x, y) => y - x)).toEqual(times)
        })
      )

      it.effect(
        "a webhook gets only the types it asked for, and only events stored after it was created",
        () =>
          Effect.gen(function* () {
            yield* readyProject("filtered")
            sent.length = 0
            outcomes.length = 0
            expect(
              (yield* send(
                "/v1/projects/filtered/domains",
                jsonPost({ hostname: "early.filtered-hooks.com" })
              )).status
            ).toBe(201)
            const onlyRemovals = yield* expectCreated(
              yield* createWebhook("filtered", {
                url: "https://hooks.example.com/removals",
                events: ["domain.removed"]
              })
            )
            const everything = yield* expectCreated(
              yield* createWebhook("filtered", { url: "https://hooks.example.com/all" })
            )
            expect(
              (yield* send(
                "/v1/projects/filtered/domains",
                jsonPost({ hostname: "late.filtered-hooks.com" })
              )).status
            ).toBe(201)
            expect(
              (yield* send("/v1/projects/filtered/domains/early.filtered-hooks.com", { method: "DELETE" }))
                .status
            ).toBe(204)
            while ((yield* runRound).claimed > 0) {
              // until nothing is due
            }
            const delivered = (url: string) =>
              sent
                .filter((request) => request.url === url)
                .map((request) => {
                  const event = JSON.parse(request.body) as {
                    readonly type: string
                    readonly hostname: string
                  }
                  return [event.type, event.hostname]
                })
            expect(delivered(onlyRemovals.url)).toEqual([["domain.removed", "early.filtered-hooks.com"]])
            expect(delivered(everything.url)).toEqual([
              ["domain.added", "late.filtered-hooks.com"],
              ["domain.removed", "early.filtered-hooks.com"]
            ])
          })
      )
    })

    it.effect(
      "15 concurrent creations at the limit of 10 make exactly 10; the others are 409 limit_reached",
      () =>
        Effect.gen(function* () {
          yield* readyProject("limited")
          const answers = yield* Effect.forEach(
            Array.from({ length: 15 }, (_, n) => n),
            (n) => createWebhook("limited", { url: `https://hooks.example.com/${n}` }),
            { concurrency: "unbounded" }
          )
          const created = answers.filter((answer) => answer.status === 201)
          const refused = answers.filter((answer) => answer.status !== 201)
          expect(created).toHaveLength(10)
          expect(refused).toHaveLength(5)
          for (const answer of refused) {
            const error = yield* expectError(answer, 409, "limit_reached")
            expect(error.message).toBe("limit reached: at most 10 webhooks per project")
          }
          const listed = (yield* json(yield* send(webhooksPath("limited")))) as {
            readonly webhooks: ReadonlyArray<WebhookBody>
          }
          expect(listed.webhooks).toHaveLength(10)
        })
    )

    describe("disabling and enabling", () => {
      it.effect(
        "a webhook disabled by failing says why, gets nothing more; PATCH enables it, and nothing else",
        () =>
          Effect.gen(function* () {
            yield* readyProject("failing")
            const hook = yield* expectCreated(
              yield* createWebhook("failing", {
                url: "https://hooks.example.com/failing",
                events: ["domain.added"]
              })
            )
            sent.length = 0
            outcomes.splice(0, outcomes.length, { _tag: "Rejected", status: 410 })
            expect(
              (yield* send("/v1/projects/failing/domains", jsonPost({ hostname: "a.failing-hooks.com" })))
                .status
            ).toBe(201)
            expect((yield* runDisablingRound).claimed).toBe(1)
            const disabled = (yield* json(yield* send(webhookPath("failing", hook.id)))) as WebhookBody
            expect(disabled).toMatchObject({ status: "disabled", disabledReason: "http_410" })
            expect(Date.parse(disabled.disabledAt ?? "")).not.toBeNaN()
            const listed = (yield* json(yield* send(webhooksPath("failing")))) as {
              readonly webhooks: ReadonlyArray<WebhookBody>
            }
            expect(listed.webhooks.map((webhook) => webhook.status)).toEqual(["disabled"])
            // Disabled: its pending delivery waits and a new event is owed nothing.
            expect(
              (yield* send("/v1/projects/failing/domains", jsonPost({ hostname: "b.failing-hooks.com" })))
                .status
            ).toBe(201)
            expect((yield* runRound).claimed).toBe(0)
            expect(sent).toHaveLength(1)

            const patch = (body: unknown, as: Caller = "alice", id = hook.id) =>
              send(webhookPath("failing", id), { ...jsonPost(body), method: "PATCH" }, as)
            for (const [body, message] of [
              [{ status: "disabled" }, "status: must be enabled (a webhook is disabled only by failing)"],
              [{ status: "ENABLED" }, "status: must be enabled (a webhook is disabled only by failing)"],
              [{ status: null }, "status: must be enabled (a webhook is disabled only by failing)"],
              [{}, "status: is required"],
              [{ url: "https://elsewhere.example.com/" }, "status: is required"]
            ] as const) {
              yield* expectInvalid(yield* patch(body), message)
            }
            yield* expectError(yield* patch({ status: "enabled" }, "bob"), 404, "not_found")
            yield* expectError(
              yield* patch({ status: "enabled" }, "alice", "wh_abcdefghijklmnopqrstuvwxyz"),
              404,
              "not_found"
            )
            expect(((yield* json(yield* send(webhookPath("failing", hook.id)))) as WebhookBody).status).toBe(
              "disabled"
            )

            const enabled = yield* patch({ status: "enabled" })
            expect(enabled.status).toBe(200)
            const body = (yield* json(enabled)) as WebhookBody
            expect(body).toEqual({ ...disabled, status: "enabled", disabledAt: null, disabledReason: null })
            // Its pending delivery is retried; the event stored while it was disabled is not sent.
            expect((yield* runRound).claimed).toBe(1)
            expect((yield* runRound).claimed).toBe(0)
            expect(sent.map((request) => JSON.parse(request.body).hostname)).toEqual([
              "a.failing-hooks.com",
              "a.failing-hooks.com"
            ])
            // Enabling an enabled webhook changes nothing.
            expect(yield* json(yield* patch({ status: "enabled" }))).toEqual(body)
          })
      )

      it.effect(
        "rotate-secret answers the new secret once; deliveries are signed with both, then the new one",
        () =>
          Effect.gen(function* () {
            yield* readyProject("rotating")
            const hook = yield* expectCreated(
              yield* createWebhook("rotating", {
                url: "https://hooks.example.com/rotating",
                events: ["domain.added"]
              })
            )
            const rotatePath = `${webhookPath("rotating", hook.id)}/rotate-secret`
            yield* expectError(yield* send(rotatePath, { method: "POST" }, "bob"), 404, "not_found")
            const answer = yield* send(rotatePath, { method: "POST" })
            expect(answer.status).toBe(200)
            const rotated = (yield* json(answer)) as {
              readonly secret: string
              readonly previousSecretExpiresAt: string
            }
            expect(Object.keys(rotated).sort()).toEqual(["previousSecretExpiresAt", "secret"])
            expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
            expect(rotated.secret).not.toBe(hook.secret)
            const expires = Date.parse(rotated.previousSecretExpiresAt) - Date.now()
            expect(expires).toBeGreaterThan(24 * 3_600_000 - 60_000)
            expect(expires).toBeLessThanOrEqual(24 * 3_600_000)
            // Shown once: no other answer carries either secret.
            for (const path of [webhooksPath("rotating"), webhookPath("rotating", hook.id)]) {
              const text = yield* Effect.flatMap(send(path), (response) =>
                Effect.promise(() => response.text())
              )
              expect(text).not.toContain(rotated.secret)
              expect(text).not.toContain(hook.secret)
            }
            sent.length = 0
            outcomes.length = 0
            expect(
              (yield* send(
                "/v1/projects/rotating/domains",
                jsonPost({ hostname: "docs.rotating-hooks.com" })
              )).status
            ).toBe(201)
            expect((yield* runRound).claimed).toBe(1)
            expect(sent.map((request) => request.secrets)).toEqual([[rotated.secret, hook.secret]])
          })
      )
    })
  }
)

layer(TestServerLive(MemoryStore.layer, { allowPrivateWebhooks: true }), { excludeTestServices: true })(
  "webhooks where the operator allows private addresses",
  (it) => {
    it.effect(
      "http and loopback or private addresses are accepted; credentials and non-URLs still are not",
      () =>
        Effect.gen(function* () {
          yield* readyProject("private")
          for (const url of [
            "http://127.0.0.1:8080/hooks",
            "https://10.0.0.5/h",
            "http://[::1]:9000/h",
            "http://localhost/h"
          ]) {
            const created = yield* expectCreated(yield* createWebhook("private", { url }))
            expect(created.url).toBe(url)
          }
          yield* expectInvalid(
            yield* createWebhook("private", { url: "http://user:pw@127.0.0.1/h" }),
            "url: must not contain a user name or password"
          )
          yield* expectInvalid(
            yield* createWebhook("private", { url: "ftp://127.0.0.1/h" }),
            "url: must use https or http"
          )
          yield* expectInvalid(
            yield* createWebhook("private", { url: "127.0.0.1:8080" }),
            "url: must be a URL such as https://example.com/webhooks"
          )
        })
    )
  }
)
