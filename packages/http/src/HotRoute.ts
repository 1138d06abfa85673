/**
 * Hot routes: operations of the contract answered by plain `HttpRouter` routes instead of through
 * `HttpApiBuilder`, whose endpoints cost about three times a route's CPU (docs/decisions.md, "The hot
 * path"). The contract stays the one definition (architecture rule 7): a hot route is built, once, at
 * layer build, from its endpoint object as the served `HttpApi` holds it, and takes from it
 * - its method and its path (a path whose parameters are whole segments is the router's syntax as it
 *   is; any other is refused rather than converted otherwise than `HttpApi` converts it);
 * - the codecs it decodes with: the endpoint's own, composed as `HttpApiBuilder` composes them (path
 *   parameters, headers, the query from single-or-repeated text, then the JSON body through the union
 *   of its payload schemas), with the parse options the contract annotates, in `HttpApi`'s order;
 * - its success status (the one its success schema declares) and the errors it may answer: the handler's
 *   type allows only the endpoint's errors, and an error it does not declare is answered 500, as
 *   `HttpApi` answers one it cannot encode;
 * - what its middleware asks, in the contract's order: headers on every answer (`GetPetDeprecation`),
 *   the key and rate check (`Authentication`), the body checks (`JsonBody`). A middleware the hot
 *   routes do not know makes the build fail: a hot route never skips what the contract asks.
 * Per request nothing is derived; the route runs what was composed.
 */
import {
  type ApiError,
  Authentication,
  GetPetDeprecation,
  getPetDeprecationHeaders,
  type InvalidRequest,
  JsonBody
} from "@petstore/api"
import type { Caller } from "@petstore/kernel"
import { Context, Effect, Schema, SchemaAST } from "effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { HttpServerRequest, ParsedSearchParams } from "effect/http/HttpServerRequest"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApi from "effect/http-api/HttpApi"
import type * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import type * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import type { RequestAdmission } from "./AuthenticationLive.js"
import { errorResponse, invalidRequestForIssue, type Refusal, refusalResponse } from "./ErrorResponse.js"
import { checkJsonBody } from "./JsonBodyLive.js"
import { appendResponseHeaders, jsonResponse, type ResponseHeaders } from "./ResponseHeaders.js"

/** What a hot operation is handed: the parts its endpoint declares, decoded by its codecs, and the caller. */
type HotRequest<E extends HttpApiEndpoint.Top> = Omit<HttpApiEndpoint.Request<E>, "endpoint" | "group"> & {
  readonly caller: Caller
}

/** A hot operation's success: the value its endpoint's success schema describes, and headers of its own. */
interface HotAnswer<A> {
  readonly body: A
  readonly headers?: ResponseHeaders | undefined
}

/** An endpoint of the contract and what answers it once its request is decoded. */
export interface HotOperation<R> {
  readonly endpoint: HttpApiEndpoint.Top
  readonly handle: (
    request: HotRequest<HttpApiEndpoint.Top>
  ) => Effect.Effect<HotAnswer<unknown>, ApiError, R>
}

/**
 * A hot operation of `endpoint`: `handle` gets the request as the endpoint's handler would, and may
 * answer its success or one of its errors (its own or its middleware's) only.
 */
export const hotOperation = <E extends HttpApiEndpoint.Top, R>(
  endpoint: E,
  handle: (
    request: HotRequest<E>
  ) => Effect.Effect<
    HotAnswer<HttpApiEndpoint.Success<E>["Type"]>,
    Extract<HttpApiEndpoint.Errors<E>, ApiError>,
    R
  >
): HotOperation<R> => ({
  endpoint,
  // The parts are decoded by this endpoint's own codecs (`hotRoutes`), so they are its request.
  handle: handle as unknown as HotOperation<R>["handle"]
})

/** A hot operation's route, with the endpoint it was built from. */
export interface HotRoute<R> {
  readonly endpoint: HttpApiEndpoint.Top
  readonly route: HttpRouter.Route<never, R>
}

/** Middleware whose whole effect is headers on every answer, and those headers. */
const answerHeaderMiddleware: ReadonlyMap<unknown, ResponseHeaders> = new Map([
  [GetPetDeprecation, getPetDeprecationHeaders]
])

const describe = (endpoint: HttpApiEndpoint.Top) =>
  `hot route ${endpoint.identifier} (${endpoint.method} ${endpoint.path})`

const middlewareName = (middleware: unknown): string =>
  (middleware as { readonly key?: string }).key ?? String(middleware)

interface MiddlewarePlan {
  /** Headers every answer carries, refusals included (the middleware outside the key check). */
  readonly everyAnswer: ResponseHeaders | undefined
  readonly jsonBody: boolean
}

/**
 * What the endpoint's middleware asks, outermost first (`HttpApiBuilder` wraps the handler in each in
 * turn, so the last added runs first): answer headers, then the key check, then the body checks.
 */
const middlewarePlan = (endpoint: HttpApiEndpoint.Top): MiddlewarePlan => {
  const outermostFirst = [...endpoint.middlewares].reverse()
  let next = 0
  let everyAnswer: ResponseHeaders | undefined
  for (; next < outermostFirst.length; next++) {
    const headers = answerHeaderMiddleware.get(outermostFirst[next])
    if (headers === undefined) break
    everyAnswer = { ...everyAnswer, ...headers }
  }
  if (outermostFirst[next] !== Authentication) {
    throw new Error(
      `${describe(endpoint)}: a hot route checks the key first; its middleware is ${outermostFirst.map(middlewareName).join(", ") || "none"}`
    )
  }
  next++
  const jsonBody = outermostFirst[next] === JsonBody
  if (jsonBody) next++
  if (next < outermostFirst.length) {
    throw new Error(
      `${describe(endpoint)}: the hot routes cannot honour its middleware ${outermostFirst.slice(next).map(middlewareName).join(", ")} there`
    )
  }
  return { everyAnswer, jsonBody }
}

/** The names of an endpoint's path parameters, as its params schema declares them. */
const paramNames = (endpoint: HttpApiEndpoint.Top): ReadonlySet<string> => {
  if (endpoint.params === undefined) return new Set()
  const encoded = SchemaAST.toEncoded(endpoint.params.ast)
  if (!SchemaAST.isObjects(encoded)) throw new Error(`${describe(endpoint)}: its params are not a struct`)
  return new Set(encoded.propertySignatures.map((property) => String(property.name)))
}

/**
 * The router path of an endpoint: its own path, when each parameter is a whole segment that its params
 * schema declares (what `HttpApi` routes unchanged). Anything else is refused at build.
 */
const routerPath = (endpoint: HttpApiEndpoint.Top): HttpRouter.PathInput => {
  const declared = paramNames(endpoint)
  for (const segment of endpoint.path.split("/")) {
    if (!segment.includes(":")) continue
    const name = /^:(\w+)$/.exec(segment)?.[1]
    if (name === undefined || !declared.has(name)) {
      throw new Error(`${describe(endpoint)}: only whole-segment, declared path parameters are supported`)
    }
  }
  if (!endpoint.path.startsWith("/")) throw new Error(`${describe(endpoint)}: its path is not absolute`)
  return endpoint.path as HttpRouter.PathInput
}

/** The parse options of each request part, as `HttpApi` reads them from the merged annotations. */
const parseOptions = (annotations: Context.Context<never>) => {
  const fallback = Context.getOrUndefined(annotations, HttpApi.ParseOptions)
  return {
    params: Context.getOrUndefined(annotations, HttpApi.ParamsParseOptions) ?? fallback,
    headers: Context.getOrUndefined(annotations, HttpApi.HeadersParseOptions) ?? fallback,
    query: Context.getOrUndefined(annotations, HttpApi.QueryParseOptions) ?? fallback,
    payload: Context.getOrUndefined(annotations, HttpApi.PayloadParseOptions) ?? fallback
  }
}

/** What the contract says of an endpoint beyond the endpoint object, as `HttpApi` reflects it. */
interface Reflected {
  readonly annotations: Context.Context<never>
  readonly successes: ReadonlyMap<number, ReadonlyArray<Schema.Top>>
  readonly errors: ReadonlyMap<number, ReadonlyArray<Schema.Top>>
}

const reflectEndpoints = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
): ReadonlyMap<HttpApiEndpoint.Top, Reflected> => {
  const found = new Map<HttpApiEndpoint.Top, Reflected>()
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, mergedAnnotations, successes, errors }) =>
      void found.set(endpoint, { annotations: mergedAnnotations, successes, errors })
  })
  return found
}

/** The one success of an endpoint: its status, and a JSON body (`JSON.stringify` of the value). */
const successStatus = (endpoint: HttpApiEndpoint.Top, reflected: Reflected): number => {
  const [only, ...others] = reflected.successes
  if (only === undefined || others.length > 0 || only[1].length !== 1) {
    throw new Error(`${describe(endpoint)}: a hot route answers exactly one success schema`)
  }
  const encoding = SchemaAST.resolveAt<{ readonly _tag: string }>("~httpApiEncoding")(
    only[1][0]?.ast as SchemaAST.AST
  )
  if (encoding !== undefined && encoding._tag !== "Json") {
    throw new Error(`${describe(endpoint)}: a hot route answers JSON only`)
  }
  return only[0]
}

/** The JSON payload schemas of an endpoint, which a hot route reads only behind the `JsonBody` checks. */
const jsonPayload = (endpoint: HttpApiEndpoint.Top, jsonBody: boolean): Schema.Top | undefined => {
  if (endpoint.payload.size === 0 && !jsonBody) return undefined
  const json = endpoint.payload.get("application/json")
  if (!jsonBody || endpoint.payload.size !== 1 || json === undefined || json.encoding._tag !== "Json") {
    throw new Error(`${describe(endpoint)}: a hot route reads a JSON body behind JsonBody, and nothing else`)
  }
  return Schema.Union(json.schemas)
}

const invalid = (error: Schema.SchemaError): InvalidRequest => invalidRequestForIssue(error.issue)

/** A request as its parts are decoded: the request the body checks accepted, and the body's JSON. */
interface Source {
  readonly context: Context.Context<never>
  readonly request: HttpServerRequest
  readonly json: unknown
}

type Parts = Record<string, unknown>

type Step = (parts: Parts, source: Source) => Effect.Effect<Parts, InvalidRequest>

const step = (
  name: string,
  schema: Schema.Top,
  options: SchemaAST.ParseOptions | undefined,
  read: (source: Source) => unknown
): Step => {
  const decode = Schema.decodeUnknownEffect(schema as Schema.Codec<unknown, unknown>, options)
  return (parts, source) =>
    Effect.map(Effect.mapError(decode(read(source)), invalid), (value) => {
      parts[name] = value
      return parts
    })
}

const routeParams = (source: Source) => Context.getUnsafe(source.context, HttpRouter.RouteContext).params
const requestHeaders = (source: Source) => source.request.headers
const searchParams = (source: Source) => Context.getUnsafe(source.context, ParsedSearchParams)
const bodyJson = (source: Source) => source.json

/** Decodes the parts the endpoint declares, in `HttpApi`'s order, into the handler's request. */
const partsDecoder = (endpoint: HttpApiEndpoint.Top, reflected: Reflected, jsonBody: boolean) => {
  const options = parseOptions(reflected.annotations)
  const payload = jsonPayload(endpoint, jsonBody)
  const steps: ReadonlyArray<Step> = [
    ...(endpoint.params === undefined ? [] : [step("params", endpoint.params, options.params, routeParams)]),
    ...(endpoint.headers === undefined
      ? []
      : [step("headers", endpoint.headers, options.headers, requestHeaders)]),
    ...(endpoint.query === undefined
      ? []
      : [step("query", Schema.toCodecArrayFromSingle(endpoint.query), options.query, searchParams)]),
    ...(payload === undefined ? [] : [step("payload", payload, options.payload, bodyJson)])
  ]
  return (caller: Caller, source: Source): Effect.Effect<Parts, InvalidRequest> => {
    const parts: Parts = { caller, request: source.request }
    let decoded: Effect.Effect<Parts, InvalidRequest> | undefined
    for (const next of steps) {
      decoded =
        decoded === undefined ? next(parts, source) : Effect.flatMap(decoded, () => next(parts, source))
    }
    return decoded ?? Effect.succeed(parts)
  }
}

/**
 * An answer of an operation's body, `JSON.stringify`d: the wire form of the contract's values (plain
 * data and classes whose own fields are the schema's, in its order) is what their encoding writes. The
 * hot-route test compares every body with what `HttpApi`'s encoding answers and with the document.
 */
const json = (body: unknown, status: number, headers: ResponseHeaders) =>
  jsonResponse(JSON.stringify(body), status, headers)

const hotRoute = <R>(
  operation: HotOperation<R>,
  reflected: Reflected,
  admit: RequestAdmission
): HotRoute<R> => {
  const { endpoint, handle } = operation
  const path = routerPath(endpoint)
  const status = successStatus(endpoint, reflected)
  const { everyAnswer, jsonBody } = middlewarePlan(endpoint)
  const decodeParts = partsDecoder(endpoint, reflected, jsonBody)
  const declaresError: (error: ApiError) => boolean = Schema.is(
    Schema.Union([...reflected.errors.values()].flat())
  )

  const withEveryAnswer = (headers: ResponseHeaders): ResponseHeaders =>
    everyAnswer === undefined ? headers : { ...everyAnswer, ...headers }

  const refused = (refusal: Refusal) =>
    Effect.succeed(
      refusalResponse(
        everyAnswer === undefined ? refusal : { ...refusal, headers: withEveryAnswer(refusal.headers) }
      )
    )

  /**
   * Every answer of an admitted request carries its headers, error bodies included. A failure that is
   * not the operation's own (a body that cannot be read, a defect) is the lifecycle's to answer, as on
   * any route; the headers go with it as pre-response headers.
   */
  const answering = (
    headers: ResponseHeaders,
    answer: Effect.Effect<HttpServerResponse.HttpServerResponse, ApiError, R>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R> =>
    Effect.catch(answer, (error) =>
      declaresError(error)
        ? Effect.succeed(errorResponse(error, headers))
        : Effect.die(new Error(`${describe(endpoint)} does not declare the error ${error.code}`))
    ).pipe(Effect.tapCause(() => appendResponseHeaders(headers)))

  const decoded = (caller: Caller, context: Context.Context<never>, request: HttpServerRequest) =>
    jsonBody
      ? Effect.flatMap(checkJsonBody(request), (body) =>
          decodeParts(caller, { context, request: body.request, json: body.json })
        )
      : decodeParts(caller, { context, request, json: undefined })

  const handler = Effect.withFiber<HttpServerResponse.HttpServerResponse, never, R>((fiber) => {
    const context = fiber.context
    const request = Context.getUnsafe(context, HttpServerRequest)
    return Effect.matchEffect(admit(request), {
      onFailure: refused,
      onSuccess: ({ caller, headers }) => {
        const answerHeaders = withEveryAnswer(headers)
        return answering(
          answerHeaders,
          Effect.flatMap(decoded(caller, context, request), (parts) =>
            Effect.map(handle(parts as unknown as HotRequest<HttpApiEndpoint.Top>), (answer) =>
              json(
                answer.body,
                status,
                answer.headers === undefined ? answerHeaders : { ...answer.headers, ...answerHeaders }
              )
            )
          )
        )
      }
    })
  })

  return { endpoint, route: HttpRouter.route(endpoint.method, path, handler) }
}

/**
 * The routes of `operations`, each built from its endpoint as `api` (the served contract) holds it:
 * an operation whose endpoint is not that very object is refused, so a route cannot be built from a
 * stale or hand-made copy of the contract.
 */
export const hotRoutes = <Id extends string, Groups extends HttpApiGroup.Constraint, R>(
  api: HttpApi.HttpApi<Id, Groups>,
  operations: ReadonlyArray<HotOperation<R>>,
  admit: RequestAdmission
): ReadonlyArray<HotRoute<R>> => {
  const reflected = reflectEndpoints(api)
  return operations.map((operation) => {
    const found = reflected.get(operation.endpoint)
    if (found === undefined) {
      throw new Error(
        `${describe(operation.endpoint)}: not an endpoint of the API ${api.identifier} as it is served`
      )
    }
    return hotRoute(operation, found, admit)
  })
}
