/**
 * The custom-domain flow's test rig: a real listening server, the real worker loop and the real DNS
 * adapter on one fresh PostgreSQL database (stored exactly as the API process stores it) and one
 * adjustable clock, plus the requests of contract section 3 as plain `fetch` calls and the assertions
 * on their bodies.
 */
import { expect } from "@effect/vitest"
import type { CertificateIssuer } from "@petstore/certificates"
import { NodeDnsResolver } from "@petstore/dns"
import { Challtestsrv } from "@petstore/dns/testing"
import { PlatformSettings } from "@petstore/domains"
import { EdgeServer } from "@petstore/edge"
import { type RequestOptions, TestServer, TestServerLive, testPlatform } from "@petstore/http/testing"
import { runCustomDomainChecks } from "@petstore/jobs"
import { NodeWebhookSender } from "@petstore/webhook-sender"
import { Duration, Effect, Layer, Schedule } from "effect"
import { withAdjustableClock } from "./AdjustableClock.js"
import { postgresTestStorage } from "./TestStorage.js"

// ---------------------------------------------------------------------------------------------
// The layer: server + worker + DNS adapter (+ the edge) on one store, one clock.

export interface FlowOptions<E, R> {
  /** The CA the worker orders from (e.g. the local CA in memory). */
  readonly issuer: Layer.Layer<CertificateIssuer, E, R>
  /** The serving edge's HTTP port (any free port when absent; HTTPS always on any free port). */
  readonly edgeHttpPort?: number
}

/**
 * Server, worker, DNS adapter and edge on one fresh database and one adjustable clock, asking the
 * challtestsrv of the enclosing layer. The store and the resolver are built once and shared (layers
 * are memoised by reference within a build): the worker writes exactly where the server reads.
 * `Layer.fresh`: each use gets its own database, server and worker, even under one memo map.
 */
export const flowLayer = <E, R>(options: FlowOptions<E, R>) =>
  Layer.fresh(
    withAdjustableClock(
      Layer.unwrap(
        Effect.map(Challtestsrv, (challtestsrv) => {
          const store = postgresTestStorage()
          const dns = NodeDnsResolver.layer({
            servers: [challtestsrv.server],
            timeout: "500 millis",
            tries: 1
          })
          const platform = Layer.succeed(PlatformSettings, testPlatform)
          const worker = Layer.effectDiscard(
            Effect.forkScoped(
              runCustomDomainChecks({
                holder: "flow-test-worker",
                batchSize: 50,
                concurrency: 8,
                lease: "30 seconds",
                pollInterval: "100 millis",
                retryBase: "5 seconds",
                disableAfter: "72 hours",
                deliveriesInFlight: 16,
                sendTimeout: NodeWebhookSender.defaultTimeout
              })
            )
          ).pipe(
            Layer.provide(options.issuer),
            // These flows add no webhook: the sender is the production one, refusing private addresses.
            Layer.provide(NodeWebhookSender.layer({ allowPrivate: false })),
            Layer.provide(Layer.mergeAll(store, dns, platform))
          )
          const edge = EdgeServer.layer({
            host: "127.0.0.1",
            httpPort: options.edgeHttpPort ?? 0,
            httpsPort: 0
          }).pipe(Layer.provide(Layer.merge(store, platform)))
          return Layer.mergeAll(TestServerLive(store, { dns, requestTimeout: "10 seconds" }), worker, edge)
        })
      )
    )
  )

// ---------------------------------------------------------------------------------------------
// Bodies and requests.

interface ErrorBody {
  readonly code: string
  readonly message: string
  readonly status: number
}
interface ProblemBody {
  readonly code: string
  readonly message: string
  readonly found?: ReadonlyArray<string>
}
export interface DomainBody {
  readonly hostname: string
  readonly projectId: string
  readonly kind: "subdomain" | "apex"
  readonly status: "pending" | "verified" | "failed"
  readonly dnsRecord: {
    readonly type: string
    readonly name: string
    readonly value: string
    readonly ttl: number
  }
  readonly verification: {
    readonly lastCheckedAt: string | null
    readonly nextCheckAt: string | null
    readonly deadline: string
    readonly problems: ReadonlyArray<ProblemBody>
  }
  readonly ownership: OwnershipBody
  readonly certificate: { readonly status: string; readonly problems: ReadonlyArray<ProblemBody> }
  readonly createdAt: string
}
interface OwnershipBody {
  readonly type: "TXT"
  readonly name: string
  readonly value: string
  readonly required: boolean
}
export interface ClaimBody {
  readonly apex: string
  readonly status: "pending" | "verified"
  readonly txt: { readonly name: string; readonly value: string }
  readonly verifiedAt: string | null
  readonly lastCheckedAt: string | null
}
export interface ProjectBody {
  readonly id: string
  readonly plan: string
  readonly defaultHostname: string
  readonly lastDeploy: null | { readonly status: string; readonly at: string }
}
interface Redirect {
  readonly from: string
  readonly to: string
  readonly status: number
}
export interface ConfigBody {
  readonly primary: string
  readonly redirects: ReadonlyArray<Redirect>
}
export interface Answer {
  readonly status: number
  readonly contentType: string | null
  readonly body: unknown
}

export type Caller = "alice" | "bob" | "nobody"

export const send = (
  method: string,
  path: string,
  options: {
    readonly body?: unknown
    readonly as?: Caller
    /** Sent after (so instead of) the JSON content type of a body. */
    readonly headers?: Record<string, string>
  } = {}
) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const key = options.as === "bob" ? server.otherKey : options.as === "nobody" ? null : server.key
    const init: RequestOptions =
      options.body === undefined
        ? { method, key, headers: { ...options.headers } }
        : {
            method,
            key,
            headers: { "content-type": "application/json", ...options.headers },
            body: typeof options.body === "string" ? options.body : JSON.stringify(options.body)
          }
    const response = yield* server.request(path, init)
    const text = yield* Effect.promise(() => response.text())
    return {
      status: response.status,
      contentType: response.headers.get("content-type"),
      body: text === "" ? null : (JSON.parse(text) as unknown)
    } satisfies Answer
  })

/** Asserts the answer is the error body, exactly `{code, message, status}`; returns it. */
export const expectError = (answer: Answer, status: number, code: string, message?: string | RegExp) => {
  expect(answer.status).toBe(status)
  expect(answer.contentType).toMatch(/^application\/json/)
  const body = answer.body as ErrorBody
  expect(Object.keys(body).sort()).toEqual(["code", "message", "status"])
  expect(body.code).toBe(code)
  expect(body.status).toBe(status)
  expect(typeof body.message).toBe("string")
  expect(body.message.length).toBeGreaterThan(0)
  if (typeof message === "string") expect(body.message).toContain(message)
  else if (message !== undefined) expect(body.message).toMatch(message)
  return body
}

export const expectOk = <T>(answer: Answer, status = 200): T => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status)
  return answer.body as T
}

const enc = encodeURIComponent
export const domainsPath = (project: string) => `/v1/projects/${project}/domains`
export const domainPath = (project: string, hostname: string) => `${domainsPath(project)}/${enc(hostname)}`

export const createProject = (id: string, plan: string, as: Caller = "alice") =>
  send("POST", "/v1/projects", { body: { id, plan }, as })
export const changePlan = (id: string, plan: string, as: Caller = "alice") =>
  send("PATCH", `/v1/projects/${id}`, { body: { plan }, as })
export const deploy = (id: string, status: string, as: Caller = "alice") =>
  send("POST", `/v1/projects/${id}/deploys`, { body: { status }, as })
export const addDomain = (project: string, hostname: string, as: Caller = "alice") =>
  send("POST", domainsPath(project), { body: { hostname }, as })
export const getDomain = (project: string, hostname: string, as: Caller = "alice") =>
  send("GET", domainPath(project, hostname), { as })
export const verify = (project: string, hostname: string, as: Caller = "alice") =>
  send("POST", `${domainPath(project, hostname)}/verify`, { as })
export const reverify = (project: string, hostname: string, as: Caller = "alice") =>
  send("POST", `${domainPath(project, hostname)}/reverify`, { as })
export const putConfig = (project: string, config: unknown, as: Caller = "alice") =>
  send("PUT", `/v1/projects/${project}/domain-config`, { body: config, as })
export const getConfig = (project: string, as: Caller = "alice") =>
  send("GET", `/v1/projects/${project}/domain-config`, { as })
export const edge = (host: string) => send("GET", `/v1/edge/resolve?host=${enc(host)}`)

export const claimsPath = "/v1/claims"
const claimPath = (apex: string) => `${claimsPath}/${enc(apex)}`
export const createClaim = (apex: unknown, as: Caller = "alice") =>
  send("POST", claimsPath, { body: { apex }, as })
export const listClaims = (as: Caller = "alice") => send("GET", claimsPath, { as })
export const getClaim = (apex: string, as: Caller = "alice") => send("GET", claimPath(apex), { as })
export const verifyClaim = (apex: string, as: Caller = "alice") =>
  send("POST", `${claimPath(apex)}/verify`, { as })
export const deleteClaim = (apex: string, as: Caller = "alice") => send("DELETE", claimPath(apex), { as })

/** A paid, deployed project of `as` (alice's by default). */
export const readyProject = (id: string, as: Caller = "alice") =>
  Effect.gen(function* () {
    expectOk(yield* createProject(id, "pro", as), 201)
    expectOk(yield* deploy(id, "succeeded", as), 201)
  })

/** The domain once `done` holds for it; fails after `within` (real time), showing the last state seen. */
export const domainOnce = (
  project: string,
  hostname: string,
  done: (domain: DomainBody) => boolean,
  within: Duration.Input = "15 seconds"
) =>
  Effect.gen(function* () {
    let last: DomainBody | undefined
    return yield* Effect.map(getDomain(project, hostname), (answer) => expectOk<DomainBody>(answer)).pipe(
      Effect.tap((domain) =>
        Effect.sync(() => {
          last = domain
        })
      ),
      Effect.filterOrFail(done, () => "not yet" as const),
      Effect.retry(Schedule.spaced("100 millis")),
      Effect.timeoutOrElse({
        duration: within,
        orElse: () =>
          Effect.fail(
            new Error(
              `${hostname} did not reach the expected state within ${Duration.format(Duration.fromInputUnsafe(within))}; last seen: ${JSON.stringify(last)}`
            )
          )
      })
    )
  })

export const problemCodes = (domain: DomainBody) =>
  domain.verification.problems.map((problem) => problem.code)

export const certificateProblemCodes = (domain: DomainBody) =>
  domain.certificate.problems.map((problem) => problem.code)

/** The target's addresses, which an ALIAS at an apex resolves to. */
export const targetAddresses = ["192.0.2.10", "192.0.2.11"]
