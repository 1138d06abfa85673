/**
 * A real listening server on a free port, over whatever storage layer a test gives it, with two
 * accounts' keys registered. Requests go through `fetch`, exactly as a client's would.
 */
import { expect } from "@effect/vitest"
import type { IdempotencyRepository, PetRepository } from "@petstore/catalogue"
import type { CertificateStore } from "@petstore/certificates"
import {
  type CustomDomainRepository,
  type DnsAnswer,
  DnsResolver,
  PlatformSettings,
  VerifyCooldown
} from "@petstore/domains"
import type { DomainEventRepository } from "@petstore/events"
import {
  AccountName,
  type ApiKeyRepository,
  issueApiKey,
  Limits,
  type LimitValues,
  type RateLimitPolicies,
  RateLimits,
  type StorageHealth
} from "@petstore/kernel"
import type { ClaimRepository, DecidedWritesStore, OwnershipRepository } from "@petstore/ownership"
import type { ProjectRepository } from "@petstore/projects"
import type { DomainConfigRepository } from "@petstore/serving"
import { MemoryRateLimiterStore } from "@petstore/store-memory"
import type { WebhookRepository } from "@petstore/webhooks"
import { Context, Duration, Effect, Layer } from "effect"
import type * as RateLimiter from "effect/persistence/RateLimiter"
import {
  type AnswerObserver,
  HttpMetrics,
  ListeningAddress,
  PetstoreHttpServer,
  petstoreHttpApiLayer,
  WebhookUrlPolicy
} from "../../src/index.js"

/** What a storage adapter provides. */
export type Ports =
  | PetRepository
  | IdempotencyRepository
  | ApiKeyRepository
  | StorageHealth
  | ProjectRepository
  | DomainConfigRepository
  | CustomDomainRepository
  | DecidedWritesStore
  | DomainEventRepository
  | ClaimRepository
  | OwnershipRepository
  | CertificateStore
  | WebhookRepository

/** The platform names tests run under. */
export const testPlatform = {
  platformDomain: "docs-platform.test",
  cnameTarget: "sites.docs-platform.test",
  caIdentifier: "letsencrypt.org"
} as const

const noSuchName = { _tag: "NoRecords", reason: "nxdomain" } as const
const nxdomain = Effect.succeed(noSuchName)

const knowsNothing: DnsResolver["Service"] = {
  cname: () => nxdomain,
  addresses: () => nxdomain,
  txt: () => nxdomain,
  caa: () => nxdomain
}

/** DNS that knows nothing: every name has no records (a test that needs answers passes its own). */
export const EmptyDns = Layer.succeed(DnsResolver, knowsNothing)

/**
 * DNS whose TXT answers a test sets as it goes (`setTxt`: an answer per name, e.g. an ownership
 * record, or a failure to answer); every other question has no records.
 */
export const makeTxtDns = () => {
  const answers = new Map<string, DnsAnswer<string>>()
  return {
    layer: Layer.succeed(DnsResolver, {
      ...knowsNothing,
      txt: (name: string) => Effect.sync((): DnsAnswer<string> => answers.get(name) ?? noSuchName)
    }),
    setTxt: (name: string, answer: DnsAnswer<string>) => Effect.sync(() => void answers.set(name, answer))
  }
}

export interface RequestOptions extends RequestInit {
  /** The bearer key to send: the first account's by default, `null` for none. */
  readonly key?: string | null
}

export class TestServer extends Context.Service<
  TestServer,
  {
    readonly baseUrl: string
    readonly key: string
    readonly otherKey: string
    readonly request: (path: string, options?: RequestOptions) => Effect.Effect<Response>
    /** The server's metrics as a scrape reads them (the app serves them on a listener of its own). */
    readonly metrics: Effect.Effect<string>
  }
>()("TestServer") {}

/** Limits no test reaches unless it means to. */
export const testRateLimits: RateLimitPolicies = {
  perKey: { name: "api-key", limit: 1_000_000, window: Duration.seconds(60) },
  perAddress: { name: "client-address", limit: 1_000_000, window: Duration.seconds(60) }
}

export const TestServerLive = <E>(
  storage: Layer.Layer<Ports, E>,
  options: {
    readonly requestTimeout?: Duration.Input
    readonly dns?: Layer.Layer<DnsResolver>
    /** Rate limits; by default far above what any test sends. */
    readonly rateLimits?: RateLimitPolicies
    /** Where the limiter counts; memory by default. */
    readonly rateLimiterStore?: Layer.Layer<RateLimiter.RateLimiterStore>
    /** Whether the animal operations take their plain routes (the default) or `HttpApi`'s handlers. */
    readonly petsRoutes?: boolean
    /** Told who answers each request: a hot route or `HttpApi` (with the plain routes on). */
    readonly observe?: AnswerObserver
    /** The platform's names; `testPlatform` by default. */
    readonly platform?: PlatformSettings["Service"]
    /** Whether webhook URLs may be `http` and name private addresses; not by default, as in production. */
    readonly allowPrivateWebhooks?: boolean
    /** Verify's cool-down; none by default, so that a test may click Verify twice in a row. */
    readonly verifyCooldown?: Duration.Input
    /** The limits on what an account grows; the contract's defaults unless a test lowers one. */
    readonly limits?: Partial<LimitValues>
  } = {}
) =>
  Layer.effect(
    TestServer,
    Effect.gen(function* () {
      const { port } = yield* ListeningAddress
      const metrics = HttpMetrics.render.pipe(
        Effect.provideContext(yield* Effect.context<HttpMetrics.HttpMetrics | CustomDomainRepository>())
      )
      const key = (yield* issueApiKey(AccountName.make("alice"))).token
      const otherKey = (yield* issueApiKey(AccountName.make("bob"))).token
      const baseUrl = `http://127.0.0.1:${port}`
      return {
        baseUrl,
        key,
        otherKey,
        metrics,
        request: (path: string, options: RequestOptions = {}) =>
          Effect.promise(() => {
            const headers = new Headers(options.headers)
            const chosen = options.key === undefined ? key : options.key
            if (chosen !== null && !headers.has("authorization"))
              headers.set("authorization", `Bearer ${chosen}`)
            return fetch(baseUrl + path, { ...options, headers })
          })
      }
    })
  ).pipe(
    Layer.provide(
      PetstoreHttpServer({
        port: 0,
        host: "127.0.0.1",
        requestTimeout: options.requestTimeout ?? "5 seconds",
        shutdownGrace: "1 second"
      }).pipe(
        Layer.provideMerge(
          petstoreHttpApiLayer({
            petsRoutes: options.petsRoutes ?? true,
            ...(options.observe === undefined ? {} : { observe: options.observe })
          })
        )
      )
    ),
    Layer.provide(storage),
    Layer.provide(options.dns ?? EmptyDns),
    Layer.provide(Layer.succeed(PlatformSettings, options.platform ?? testPlatform)),
    Layer.provide(Layer.succeed(WebhookUrlPolicy, { allowPrivate: options.allowPrivateWebhooks ?? false })),
    Layer.provide(Layer.succeed(RateLimits, options.rateLimits ?? testRateLimits)),
    Layer.provide(
      Layer.succeed(VerifyCooldown, Duration.fromInputUnsafe(options.verifyCooldown ?? Duration.zero))
    ),
    Layer.provide(Layer.succeed(Limits, { ...Limits.defaultValue(), ...options.limits })),
    Layer.provide(options.rateLimiterStore ?? MemoryRateLimiterStore.layer)
  )

/** A JSON POST: `body` as is when it is text (malformed JSON included), else serialised. */
export const jsonPost = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: typeof body === "string" ? body : JSON.stringify(body)
})

/** Reads a JSON body (every body of this API is JSON). */
export const json = (response: Response) => Effect.promise(() => response.json() as Promise<unknown>)

export interface ErrorBody {
  readonly code: string
  readonly message: string
  readonly status: number
}

/** Asserts the answer is the one error body, exactly `{code, message, status}`, of `status`; returns it. */
export const expectError = (response: Response, status: number, code: string) =>
  Effect.gen(function* () {
    const body = (yield* json(response)) as ErrorBody
    expect(response.status).toBe(status)
    expect(response.headers.get("content-type")).toMatch(/^application\/json/)
    expect(Object.keys(body).sort()).toEqual(["code", "message", "status"])
    expect(body.code).toBe(code)
    expect(body.status).toBe(status)
    expect(body.message.length).toBeGreaterThan(0)
    return body
  })
