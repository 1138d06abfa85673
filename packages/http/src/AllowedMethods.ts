/**
 * Which methods each path of the API accepts, read from the `HttpApi` definition itself, so that a
 * known path with the wrong method is a 405 with `Allow` rather than a 404; and which path template a
 * path matches (the route label of the metrics).
 */
import { PetstoreApi } from "@petstore/api"
import * as HttpApi from "effect/http-api/HttpApi"

interface RoutePattern {
  readonly template: string
  /** The template's segments; `undefined` where a parameter takes any non-empty segment. */
  readonly segments: ReadonlyArray<string | undefined>
  readonly methods: Set<string>
}

const segmentsOf = (template: string): ReadonlyArray<string | undefined> =>
  template.split("/").map((segment) => (segment.startsWith(":") ? undefined : segment))

const routes: ReadonlyArray<RoutePattern> = (() => {
  const byPath = new Map<string, RoutePattern>()
  HttpApi.reflect(PetstoreApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      const existing = byPath.get(endpoint.path) ?? {
        template: endpoint.path,
        segments: segmentsOf(endpoint.path),
        methods: new Set<string>()
      }
      existing.methods.add(endpoint.method)
      byPath.set(endpoint.path, existing)
    }
  })
  return [...byPath.values()]
})()

/**
 * Routes by their number of segments, in definition order: a path is compared with those of its
 * own length only, segment by segment, rather than with every route's pattern.
 */
const routesByLength = new Map<number, Array<RoutePattern>>()
for (const route of routes) {
  const sameLength = routesByLength.get(route.segments.length)
  if (sameLength === undefined) routesByLength.set(route.segments.length, [route])
  else sameLength.push(route)
}

/** Templates without parameters, which a path matches only by being equal to one. */
const literalRoutes = new Map(
  routes.filter((route) => !route.segments.includes(undefined)).map((route) => [route.template, route])
)

const matches = (route: RoutePattern, segments: ReadonlyArray<string>): boolean => {
  for (let i = 0; i < segments.length; i++) {
    const expected = route.segments[i]
    if (expected === undefined ? segments[i] === "" : expected !== segments[i]) return false
  }
  return true
}

const matching = (path: string): ReadonlyArray<RoutePattern> => {
  const segments = path.split("/")
  return (routesByLength.get(segments.length) ?? []).filter((route) => matches(route, segments))
}

/** The methods the API accepts on this path; empty when no operation has this path. */
export const allowedMethods = (path: string): ReadonlyArray<string> => {
  const methods = new Set<string>()
  for (const route of matching(path)) for (const method of route.methods) methods.add(method)
  return [...methods].sort()
}

/** The API path template this path matches (`/v1/pets/:petId`), literal paths first. */
export const routeTemplate = (path: string): string | undefined => {
  const literal = literalRoutes.get(path)
  if (literal !== undefined) return literal.template
  const segments = path.split("/")
  for (const route of routesByLength.get(segments.length) ?? []) {
    if (matches(route, segments)) return route.template
  }
  return undefined
}
