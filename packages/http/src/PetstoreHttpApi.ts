/**
 * The implemented `PetstoreApi`: handlers, middleware, the OpenAPI document at `/v1/openapi.json` and
 * the interactive reference at `/docs`, the metrics at `/metrics`. It needs the domain's ports, the rate limits and a store for
 * their counters (`RateLimiterStore`: memory or Redis, the app's choice), and nothing else.
 */
import { RateLimiter } from "@effect/experimental"
import { HttpApiBuilder } from "@effect/platform"
import * as HttpApiScalar from "@effect/platform/HttpApiScalar"
import { PetstoreApi } from "@petstore/api"
import { Layer } from "effect"
import { ApiErrorMapping } from "./ApiErrorMapping.js"
import { AuthenticationLive } from "./AuthenticationLive.js"
import { EdgeHandlers } from "./EdgeHandlers.js"
import { GetPetDeprecationLive } from "./GetPetDeprecationLive.js"
import { HealthHandlers } from "./HealthHandlers.js"
import * as HttpMetrics from "./HttpMetrics.js"
import { JsonBodyLive } from "./JsonBodyLive.js"
import * as NodeSha256 from "./NodeSha256.js"
import { PetsHandlers } from "./PetsHandlers.js"
import { ProjectsHandlers } from "./ProjectsHandlers.js"
import { docsPath, openApiPath } from "./PublicPaths.js"
import * as RequestRateLimiter from "./RequestRateLimiter.js"

const ApiLive = HttpApiBuilder.api(PetstoreApi).pipe(
  Layer.provide([PetsHandlers, HealthHandlers, ProjectsHandlers, EdgeHandlers]),
  Layer.provide([
    AuthenticationLive.pipe(Layer.provide(NodeSha256.layer)),
    JsonBodyLive,
    GetPetDeprecationLive
  ]),
  Layer.provide(RequestRateLimiter.layer.pipe(Layer.provide(RateLimiter.layer)))
)

/**
 * The version of the Scalar reference UI `/docs` loads from jsDelivr. Embedding it instead (the
 * platform's `HttpApiScalar.layer`) puts 3.3 MB of script in the server, parsed at every start and kept
 * in memory for a page that only a browser, which can fetch it itself, ever runs.
 */
export const scalarVersion = "1.39.3"

export const PetstoreHttpApiLive = Layer.mergeAll(
  ApiErrorMapping,
  HttpApiBuilder.middlewareOpenApi({ path: openApiPath }),
  HttpApiScalar.layerCdn({ path: docsPath, version: scalarVersion }),
  HttpMetrics.MetricsRoute
).pipe(Layer.provideMerge(ApiLive), Layer.provideMerge(HttpMetrics.layer))
