/**
 * Webhooks under abuse (contract section 9, issue 25), through the BUILT processes, with receivers on
 * loopback:
 * - fairness, on the embedded default (the API's own loop) and on PostgreSQL (a worker process): a
 *   tarpit receiver that never answers holds only its own webhook; a healthy receiver of another
 *   project gets each event's first attempt within 5 seconds of its `occurredAt` (the recorded times),
 *   with the production poll interval, while the tarpit still hangs;
 * - a webhook whose every delivery failed for `PETSTORE_WEBHOOK_DISABLE_AFTER` (2 seconds here) is
 *   disabled with the last failure's reason, gets nothing more, and `PATCH {status: "enabled"}`
 *   enables it again;
 * - after `rotate-secret`, a receiver holding either the old or the new secret accepts a delivery
 *   (the 24 hours' end is tested with a controlled clock in the domain and store packages).
 */
import { afterAll, describe, expect, layer } from "@effect/vitest"
import { Challtestsrv, challtestsrvLayer } from "@petstore/dns/testing"
import type { TestServer } from "@petstore/http/testing"
import { type Duration, Effect, Layer, Schedule } from "effect"
import { Webhook } from "standardwebhooks"
import { cleanUp, freshDatabase } from "./support/ApiProcess.js"
import { builtApiLayer } from "./support/BuiltApiServer.js"
import { send } from "./support/DomainFlow.js"
import { sharedEnv, startPostgresApi, workerSpawner } from "./support/WebhookProcesses.js"
import { startReceiver } from "./support/WebhookReceiver.js"

afterAll(cleanUp)

interface Answer {
  readonly status: number
  readonly body: unknown
}

/** A request to the API under test, as `method path` with an optional JSON body. */
type Call<R> = (method: string, path: string, body?: unknown) => Effect.Effect<Answer, never, R>

interface AttemptBody {
  readonly eventId: string
  readonly attempt: number
  readonly status: string
  readonly httpStatus: number | null
  readonly error: string | null
  readonly at: string
}
interface EventBody {
  readonly id: string
  readonly type: string
  readonly occurredAt: string
  readonly hostname: string
}
interface WebhookBody {
  readonly id: string
  readonly status: "enabled" | "disabled"
  readonly disabledAt: string | null
  readonly disabledReason: string | null
  readonly secret?: string
}

const ok = <T>(answer: Answer, status = 200): T => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status)
  return answer.body as T
}

const ready = <R>(call: Call<R>, id: string) =>
  Effect.gen(function* () {
    ok(yield* call("POST", "/v1/projects", { id, plan: "pro" }), 201)
    ok(yield* call("POST", `/v1/projects/${id}/deploys`, { status: "succeeded" }), 201)
  })

const hookOf = <R>(call: Call<R>, project: string, url: string) =>
  Effect.map(call("POST", `/v1/projects/${project}/webhooks`, { url, events: ["domain.added"] }), (answer) =>
    ok<WebhookBody>(answer, 201)
  )

const addDomain = <R>(call: Call<R>, project: string, hostname: string) =>
  Effect.map(call("POST", `/v1/projects/${project}/domains`, { hostname }), (answer) => ok(answer, 201))

const attemptsOf = <R>(call: Call<R>, project: string, id: string) =>
  Effect.map(
    call("GET", `/v1/projects/${project}/webhooks/${id}/deliveries`),
    (answer) => ok<{ readonly deliveries: ReadonlyArray<AttemptBody> }>(answer).deliveries
  )

const addedEventsOf = <R>(call: Call<R>, project: string) =>
  Effect.map(call("GET", `/v1/projects/${project}/events?limit=100`), (answer) =>
    ok<ReadonlyArray<EventBody>>(answer).filter((event) => event.type === "domain.added")
  )

/** `read` once `done` holds for what it gives, polled every 100 ms for at most `within`. */
const once = <A, R>(read: Effect.Effect<A, never, R>, done: (value: A) => boolean, within: Duration.Input) =>
  read.pipe(
    Effect.filterOrFail(done, () => "not yet" as const),
    Effect.retry(Schedule.spaced("100 millis")),
    Effect.timeoutOrElse({
      duration: within,
      orElse: () =>
        Effect.flatMap(read, (last) =>
          Effect.die(new Error(`not within ${String(within)}: ${JSON.stringify(last)}`))
        )
    })
  )

/** The longest a first attempt may start after its event occurred (contract section 9). */
const fairnessBound = 5_000

/**
 * A tarpit receiver (never answers: the sender's 10-second timeout ends each attempt) and a healthy one,
 * on webhooks of two projects. The tarpit's events come first, on three hostnames; the healthy
 * project's come one a second while the tarpit holds its request.
 */
const fairness = <R>(call: Call<R>, name: string) =>
  Effect.gen(function* () {
    const tarpit = yield* startReceiver(() => "hang")
    const healthy = yield* startReceiver(() => 204)
    const [slowProject, fineProject] = [`tarpit-${name}`, `healthy-${name}`]
    yield* ready(call, slowProject)
    yield* ready(call, fineProject)
    const slow = yield* hookOf(call, slowProject, tarpit.url)
    const fine = yield* hookOf(call, fineProject, healthy.url)

    for (const n of [1, 2, 3]) yield* addDomain(call, slowProject, `docs${n}.tarpit-${name}.com`)
    const [held] = yield* tarpit.requestsOnce((got) => got.length >= 1, "10 seconds")
    for (const n of [1, 2, 3]) {
      yield* addDomain(call, fineProject, `docs${n}.healthy-${name}.com`)
      yield* Effect.sleep("1 second")
    }
    const attempts = yield* once(
      attemptsOf(call, fineProject, fine.id),
      (got) => got.filter((attempt) => attempt.status === "delivered").length >= 3,
      "20 seconds"
    )
    // The tarpit still holds its first request: none of its attempts has ended yet, so every healthy
    // delivery happened while it hung.
    expect(yield* attemptsOf(call, slowProject, slow.id)).toEqual([])
    expect(held).toBeDefined()
    const events = yield* addedEventsOf(call, fineProject)
    expect(events).toHaveLength(3)
    for (const event of events) {
      const first = attempts.find((attempt) => attempt.eventId === event.id && attempt.attempt === 1)
      if (first === undefined) return expect.fail(`no first attempt at event ${event.id}`)
      const delay = Date.parse(first.at) - Date.parse(event.occurredAt)
      expect(delay, `event ${event.id} of ${event.hostname}`).toBeGreaterThanOrEqual(0)
      expect(delay, `event ${event.id} of ${event.hostname}`).toBeLessThan(fairnessBound)
      expect(first).toMatchObject({ status: "delivered", httpStatus: 204, error: null })
    }
    expect(healthy.requests()).toHaveLength(3)
    // The tarpit's own events wait in its lane: one request at a time.
    expect(tarpit.requests()).toHaveLength(1)
  }).pipe(Effect.scoped)

const embeddedCall: Call<TestServer> = (method, path, body) =>
  Effect.map(send(method, path, body === undefined ? {} : { body }), ({ body: answer, status }) => ({
    status,
    body: answer
  }))

const apiWith = (env: Record<string, string>) =>
  Layer.unwrap(Effect.map(Challtestsrv, (dns) => builtApiLayer(dns.server, env)))

layer(challtestsrvLayer, { timeout: 30_000, excludeTestServices: true })("webhooks under abuse", (it) => {
  it.layer(
    apiWith({
      PETSTORE_WEBHOOK_ALLOW_PRIVATE: "true",
      PETSTORE_WEBHOOK_RETRY_BASE: "200 millis",
      PETSTORE_WEBHOOK_DISABLE_AFTER: "2 seconds",
      // The production default: the bound must hold with it.
      PETSTORE_WORKER_POLL_INTERVAL: "1 second"
    }),
    { timeout: 120_000 }
  )("the built API on its embedded default", (it) => {
    it.effect(
      "a tarpit receiver delays no other webhook: each healthy event's first attempt within 5 s of it",
      () => fairness(embeddedCall, "embedded"),
      60_000
    )

    it.effect(
      "a webhook failing for the disabling period is disabled with the reason, gets nothing more, and PATCH enables it",
      () =>
        Effect.gen(function* () {
          let answer = 500
          const receiver = yield* startReceiver(() => answer)
          yield* ready(embeddedCall, "disabled-hooks")
          const hook = yield* hookOf(embeddedCall, "disabled-hooks", receiver.url)
          const path = `/v1/projects/disabled-hooks/webhooks/${hook.id}`
          yield* addDomain(embeddedCall, "disabled-hooks", "one.disabled-hooks.com")
          const disabled = yield* once(
            Effect.map(embeddedCall("GET", path), (got) => ok<WebhookBody>(got)),
            (webhook) => webhook.status === "disabled",
            "20 seconds"
          )
          expect(disabled.disabledReason).toBe("http_500")
          const attempts = yield* attemptsOf(embeddedCall, "disabled-hooks", hook.id)
          const firstAt = Math.min(...attempts.map((attempt) => Date.parse(attempt.at)))
          // Not before every delivery had failed for 2 seconds.
          expect(Date.parse(disabled.disabledAt ?? "")).toBeGreaterThanOrEqual(firstAt + 2_000)
          expect(attempts.every((attempt) => attempt.error === "http_500")).toBe(true)

          // Disabled: nothing more is sent, not even the new events.
          const before = receiver.requests().length
          yield* addDomain(embeddedCall, "disabled-hooks", "two.disabled-hooks.com")
          yield* Effect.sleep("2 seconds")
          expect(receiver.requests()).toHaveLength(before)

          for (const body of [{ status: "disabled" }, { status: "on" }, {}]) {
            expect((yield* embeddedCall("PATCH", path, body)).status).toBe(400)
          }
          expect((yield* send("PATCH", path, { body: { status: "enabled" }, as: "bob" })).status).toBe(404)
          answer = 204
          const enabled = ok<WebhookBody>(yield* embeddedCall("PATCH", path, { status: "enabled" }))
          expect(enabled).toMatchObject({ status: "enabled", disabledAt: null, disabledReason: null })
          // Its pending delivery is retried; the event stored while disabled was never owed.
          const [one, two] = yield* addedEventsOf(embeddedCall, "disabled-hooks")
          yield* receiver.requestsOnce(
            (got) => got.slice(before).some((request) => request.headers["webhook-id"] === one?.id),
            "10 seconds"
          )
          yield* addDomain(embeddedCall, "disabled-hooks", "three.disabled-hooks.com")
          const [, , three] = yield* addedEventsOf(embeddedCall, "disabled-hooks")
          const after = yield* receiver.requestsOnce(
            (got) => got.some((request) => request.headers["webhook-id"] === three?.id),
            "10 seconds"
          )
          expect(after.some((request) => request.headers["webhook-id"] === two?.id)).toBe(false)
        }).pipe(Effect.scoped),
      60_000
    )

    it.effect(
      "after rotate-secret a receiver holding either secret verifies the delivery; one holding neither does not",
      () =>
        Effect.gen(function* () {
          const receiver = yield* startReceiver()
          yield* ready(embeddedCall, "rotated-hooks")
          const hook = yield* hookOf(embeddedCall, "rotated-hooks", receiver.url)
          const rotated = ok<{ readonly secret: string; readonly previousSecretExpiresAt: string }>(
            yield* embeddedCall("POST", `/v1/projects/rotated-hooks/webhooks/${hook.id}/rotate-secret`)
          )
          expect(rotated.secret).not.toBe(hook.secret)
          yield* addDomain(embeddedCall, "rotated-hooks", "docs.rotated-hooks.com")
          const [request] = yield* receiver.requestsOnce((got) => got.length >= 1, "10 seconds")
          if (request === undefined) return expect.fail("no delivery")
          expect(request.headers["webhook-signature"]).toMatch(/^v1,\S+ v1,\S+$/)
          for (const secret of [hook.secret ?? "", rotated.secret]) {
            const event = new Webhook(secret).verify(request.body, request.headers) as EventBody
            expect(event.hostname).toBe("docs.rotated-hooks.com")
          }
          expect(() =>
            new Webhook(`whsec_${Buffer.alloc(32, 9).toString("base64")}`).verify(
              request.body,
              request.headers
            )
          ).toThrow()
        }).pipe(Effect.scoped),
      60_000
    )
  })

  describe("a worker process beside an API on PostgreSQL", () => {
    const startWorker = workerSpawner()

    it.effect(
      "a tarpit receiver delays no other webhook: each healthy event's first attempt within 5 s of it",
      () =>
        Effect.gen(function* () {
          const dns = yield* Challtestsrv
          const database = yield* Effect.promise(freshDatabase)
          const env = {
            ...sharedEnv(dns.server, database.url, "webhooks under abuse"),
            PETSTORE_WORKER_POLL_INTERVAL: "1 second"
          }
          const api = yield* Effect.acquireRelease(
            Effect.promise(() => startPostgresApi(env)),
            ({ server }) => Effect.promise(() => server.terminate())
          )
          const worker = yield* startWorker(env)
          const call: Call<never> = (method, path, body) =>
            Effect.map(
              Effect.promise(() => api.call(method, path, body)),
              (answer) => ({
                status: answer.status,
                body: answer.text === "" ? null : answer.json()
              })
            )
          yield* fairness(call, "postgres")
          worker.child.kill("SIGTERM")
          expect(yield* Effect.promise(() => worker.exited)).toEqual({ code: 0, signal: null })
        }).pipe(Effect.scoped),
      90_000
    )
  })
})
