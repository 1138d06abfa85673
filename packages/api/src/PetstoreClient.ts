/**
 * A typed client of the service, derived from the same definition the server runs. It needs an
 * `HttpClient` (for example `FetchHttpClient.layer`).
 */
import type { Effect } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpApiClient from "effect/http-api/HttpApiClient"
import { PetstoreApi } from "./PetstoreApi.js"

export interface PetstoreClientOptions {
  /** Where the service runs, without `/v1` (the paths carry it), e.g. `http://localhost:3000`. */
  readonly baseUrl: string
  readonly apiKey?: string
}

export const makePetstoreClient = (options: PetstoreClientOptions) =>
  HttpApiClient.make(PetstoreApi, {
    baseUrl: options.baseUrl,
    transformClient: (client) =>
      options.apiKey === undefined
        ? client
        : HttpClient.mapRequest(client, HttpClientRequest.bearerToken(options.apiKey))
  })

export type PetstoreClient = Effect.Success<ReturnType<typeof makePetstoreClient>>
