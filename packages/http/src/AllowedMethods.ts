/**
 * Which methods each path of the API accepts, read from the `HttpApi` definition itself, so that a
 * known path with the wrong method is a 405 with `Allow` rather than a 404; and which path template a
 * path matches (the route label of the metrics).
 */
import { HttpApi } from "@effect/platform"
import { PetstoreApi } from "@petstore/api"

interface RoutePattern {
  readonly template: string
  readonly pattern: RegExp
  readonly methods: Set<string>
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const toPattern = (path: string): RegExp =>
  new RegExp(
    `^${path
      .split("/")
      .map((segment) => (segment.startsWith(":") ? "[^/]+" : escapeRegExp(segment)))
      .join("/")}$`
  )

const routes: ReadonlyArray<RoutePattern> = (() => {
  const byPath = new Map<string, RoutePattern>()
  HttpApi.reflect(PetstoreApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      const existing = byPath.get(endpoint.path) ?? {
        template: endpoint.path,
        pattern: toPattern(endpoint.path),
        methods: new Set<string>()
      }
      existing.methods.add(endpoint.method)
      byPath.set(endpoint.path, existing)
    }
  })
  return [...byPath.values()]
})()

/** The methods the API accepts on this path; empty when no operation has this path. */
export const allowedMethods = (path: string): ReadonlyArray<string> => {
  const methods = new Set<string>()
  for (const route of routes) {
    if (route.pattern.test(path)) for (const method of route.methods) methods.add(method)
  }
  return [...methods].sort()
}

/** The API path template this path matches (`/v1/pets/:petId`), literal paths first. */
export const routeTemplate = (path: string): string | undefined => {
  let found: string | undefined
  for (const route of routes) {
    if (!route.pattern.test(path)) continue
    if (!route.template.includes(":")) return route.template
    found ??= route.template
  }
  return found
}
