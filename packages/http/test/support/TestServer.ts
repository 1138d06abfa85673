/**
 * A real listening server on a free port, over whatever storage layer a test gives it, with two
 * accounts' keys registered. Requests go through `fetch`, exactly as a client's would.
 */
import {
  AccountName,
  type ApiKeyRepository,
  type IdempotencyRepository,
  issueApiKey,
  type PetRepository,
  type StorageHealth
} from "@petstore/domain"
import { ListeningAddress, PetstoreHttpApiLive, PetstoreHttpServer } from "@petstore/http"
import { Context, type Duration, Effect, Layer } from "effect"

export type Ports = PetRepository | IdempotencyRepository | ApiKeyRepository | StorageHealth

export interface RequestOptions extends RequestInit {
  /** The bearer key to send: the first account's by default, `null` for none. */
  readonly key?: string | null
}

export class TestServer extends Context.Tag("TestServer")<
  TestServer,
  {
    readonly baseUrl: string
    readonly key: string
    readonly otherKey: string
    readonly request: (path: string, options?: RequestOptions) => Effect.Effect<Response>
  }
>() {}

export const TestServerLive = <E>(
  storage: Layer.Layer<Ports, E>,
  options: { readonly requestTimeout?: Duration.DurationInput } = {}
) =>
  Layer.effect(
    TestServer,
    Effect.gen(function* () {
      const { port } = yield* ListeningAddress
      const key = (yield* issueApiKey(AccountName.make("alice"))).token
      const otherKey = (yield* issueApiKey(AccountName.make("bob"))).token
      const baseUrl = `http://127.0.0.1:${port}`
      return {
        baseUrl,
        key,
        otherKey,
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
      }).pipe(Layer.provide(PetstoreHttpApiLive))
    ),
    Layer.provide(storage)
  )

/** Reads a JSON body (every body of this API is JSON). */
export const json = (response: Response) => Effect.promise(() => response.json() as Promise<unknown>)
