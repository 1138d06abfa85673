/**
 * A real listening server on a free port, over whatever storage layer a test gives it, with two
 * accounts' keys registered. Requests go through `fetch`, exactly as a client's would.
 */
import type { IdempotencyRepository, PetRepository } from "@petstore/catalogue"
import {
  type CertificateStore,
  type CustomDomainRepository,
  DnsResolver,
  PlatformSettings,
  type ProjectRepository
} from "@petstore/custom-domains"
import {
  AccountName,
  type ApiKeyRepository,
  issueApiKey,
  type RateLimitPolicies,
  RateLimits,
  type StorageHealth
} from "@petstore/kernel"
import { MemoryRateLimiterStore } from "@petstore/store-memory"
import { Context, Duration, Effect, Layer } from "effect"
import type * as RateLimiter from "effect/persistence/RateLimiter"
import { HttpMetrics, ListeningAddress, PetstoreHttpServer, petstoreHttpApiLayer } from "../../src/index.js"

/** What a storage adapter provides. */
export type Ports =
  | PetRepository
  | IdempotencyRepository
  | ApiKeyRepository
  | StorageHealth
  | ProjectRepository
  | CustomDomainRepository
  | CertificateStore

/** The platform names tests run under. */
export const testPlatform = {
  platformDomain: "docs-platform.test",
  cnameTarget: "sites.docs-platform.test",
  caIdentifier: "letsencrypt.org"
} as const

/** DNS that knows nothing: every name has no records (a test that needs answers passes its own). */
export const EmptyDns = Layer.succeed(DnsResolver, {
  cname: () => Effect.succeed({ _tag: "NoRecords", reason: "nxdomain" } as const),
  addresses: () => Effect.succeed({ _tag: "NoRecords", reason: "nxdomain" } as const),
  caa: () => Effect.succeed({ _tag: "NoRecords", reason: "nxdomain" } as const)
})

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
    /** The platform's names; `testPlatform` by default. */
    readonly platform?: PlatformSettings["Service"]
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
      }).pipe(Layer.provideMerge(petstoreHttpApiLayer({ petsRoutes: options.petsRoutes ?? true })))
    ),
    Layer.provide(storage),
    Layer.provide(options.dns ?? EmptyDns),
    Layer.provide(Layer.succeed(PlatformSettings, options.platform ?? testPlatform)),
    Layer.provide(Layer.succeed(RateLimits, options.rateLimits ?? testRateLimits)),
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
