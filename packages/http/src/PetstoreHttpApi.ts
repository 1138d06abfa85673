/**
 * The implemented `PetstoreApi`: handlers, middleware, the OpenAPI document at `/v1/openapi.json` and
 * the interactive reference at `/docs`, built into one HTTP app (`PetstoreHttpApp`) that the server
 * serves; the metrics it records (`HttpMetrics`) the app serves on a listener of their own. It needs the
 * domain's ports, the rate limits and a store for their counters (`RateLimiterStore`: memory or Redis,
 * the app's choice), and nothing else.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { PetstoreApi } from "@petstore/api"
import { Context, Effect, Layer, type Scope } from "effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerError from "effect/http/HttpServerError"
import { HttpServerRequest } from "effect/http/HttpServerRequest"
import type { HttpServerResponse } from "effect/http/HttpServerResponse"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import type * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as ApiReference from "./ApiReference.js"
import { AuthenticationLive, makeRequestAdmission } from "./AuthenticationLive.js"
import { ClaimsHandlers } from "./ClaimsHandlers.js"
import { EdgeHandlers } from "./EdgeHandlers.js"
import { EventsHandlers } from "./EventsHandlers.js"
import { GetPetDeprecationLive } from "./GetPetDeprecationLive.js"
import { HealthHandlers } from "./HealthHandlers.js"
import * as HttpMetrics from "./HttpMetrics.js"
import { JsonBodyLive } from "./JsonBodyLive.js"
import * as NodeSha256 from "./NodeSha256.js"
import { PetsHandlers } from "./PetsHandlers.js"
import { petsRoutes } from "./PetsRoutes.js"
import { ProjectsHandlers } from "./ProjectsHandlers.js"
import { openApiPath } from "./PublicPaths.js"
import * as RequestRateLimiter from "./RequestRateLimiter.js"
import { WebhooksHandlers } from "./WebhooksHandlers.js"

const Middleware = Layer.mergeAll(
  AuthenticationLive.pipe(Layer.provide(NodeSha256.layer)),
  JsonBodyLive,
  GetPetDeprecationLive
)

const Handlers = Layer.mergeAll(
  PetsHandlers,
  HealthHandlers,
  ProjectsHandlers,
  EventsHandlers,
  WebhooksHandlers,
  ClaimsHandlers,
  EdgeHandlers
).pipe(Layer.provide(Middleware))

const Routes = Layer.mergeAll(
  HttpApiBuilder.layer(PetstoreApi, { openapiPath: openApiPath }).pipe(Layer.provide(Handlers)),
  ApiReference.layer
).pipe(Layer.provide(NodeHttpServer.layerHttpServices))

const isRouteNotFound = (error: unknown): boolean =>
  HttpServerError.isHttpServerError(error) && error.reason._tag === "RouteNotFound"

/**
 * Told who answers each request: a hot route (with the endpoint it was built from) or, when no hot
 * route matched, the `HttpApi` app. Tests observe the server's own composition with it; without one
 * (production) the composition is exactly the same, and nothing is added to any request.
 */
export interface AnswerObserver {
  readonly hotRoute: (request: HttpServerRequest, endpoint: HttpApiEndpoint.Top) => void
  readonly httpApi: (request: HttpServerRequest) => void
}

export interface PetstoreHttpApiOptions {
  /**
   * Whether the animal operations are answered by their plain routes (`PetsRoutes`, the default) or
   * by their `HttpApi` handlers, the reference the routes are tested against.
   */
  readonly petsRoutes?: boolean
  /** Told who answers each request, while the plain routes are on. */
  readonly observe?: AnswerObserver
}

/** `app`, telling `observe` of each request it is given. */
const observed = <E, R>(
  observe: (request: HttpServerRequest) => void,
  app: Effect.Effect<HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse, E, R> =>
  Effect.withFiber((fiber) => {
    observe(Context.getUnsafe(fiber.context, HttpServerRequest))
    return app
  })

const makeApp = (options: PetstoreHttpApiOptions) =>
  Effect.gen(function* () {
    const api = yield* HttpRouter.toHttpEffect(Routes)
    if (options.petsRoutes === false) return api
    const hot = petsRoutes(yield* makeRequestAdmission)
    const { observe } = options
    const routes = yield* HttpRouter.toHttpEffect(
      HttpRouter.addAll(
        hot.map(({ endpoint, route }) =>
          observe === undefined
            ? route
            : HttpRouter.route(
                route.method,
                route.path,
                observed((request) => observe.hotRoute(request, endpoint), route.handler),
                { uninterruptible: route.uninterruptible }
              )
        )
      )
    )
    const fallback = observe === undefined ? api : observed(observe.httpApi, api)
    // Any other request is the API's: it routes it, or answers 404/405 through the lifecycle.
    return Effect.catch(routes, (error) => (isRouteNotFound(error) ? fallback : Effect.fail(error)))
  })

/**
 * Every route of the service as one effect answering the current request. Failures it leaves are the
 * request lifecycle's to turn into error bodies (`withRequestLifecycle`).
 */
export class PetstoreHttpApp extends Context.Service<
  PetstoreHttpApp,
  Effect.Success<ReturnType<typeof makeApp>>
>()("@petstore/http/PetstoreHttpApp") {}

/**
 * What the app needs while it answers a request (the domain's ports): the server runs it with the
 * services it was built with, so they must reach the server's layer too.
 */
export type PetstoreHttpAppServices = Exclude<
  Effect.Services<PetstoreHttpApp["Service"]>,
  HttpServerRequest | Scope.Scope
>

export const petstoreHttpApiLayer = (options: PetstoreHttpApiOptions) =>
  Layer.effect(PetstoreHttpApp, makeApp(options)).pipe(
    Layer.provide(NodeSha256.layer),
    Layer.provide(RequestRateLimiter.layer),
    Layer.provideMerge(HttpMetrics.layer)
  )

export const PetstoreHttpApiLive = petstoreHttpApiLayer({})
