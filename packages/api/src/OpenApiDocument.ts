/**
 * Corrections to the generated OpenAPI document, so that it describes what the server really sends,
 * in the shape clients already know: the response headers every answer carries (the operations declare
 * none), component names without the `Encoded` suffix `HttpApi` gives a schema whose wire form differs
 * from its value (a class, a date), a one-word enumeration without its `anyOf` wrapper, and each
 * parameter's description next to it as well as in its schema.
 */

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const header = (description: string, example?: string): Json => ({
  description,
  schema: { type: "string", ...(example === undefined ? {} : { example }) }
})

const requestIdHeader = header("Echoes the request's X-Request-Id, or a generated one.")

const deprecationHeaders: Json = {
  Deprecation: header("RFC 9745: deprecated since 2026-11-25.", "@1795564800"),
  Sunset: header("RFC 8594: removed on this date.", "Thu, 05 Dec 2030 00:00:00 GMT"),
  Link: header("RFC 8288: the successor operation.", '</v1/pets>; rel="successor-version"')
}

const extraHeaders: Record<string, Record<string, Json>> = {
  listPets: {
    "200": {
      Link: header(
        "RFC 8288: the next page, when more animals match.",
        '</v1/pets?limit=20&after=123>; rel="next"'
      )
    }
  },
  createPet: {
    "201": {
      Location: header("Where the created animal is.", "/v1/pets/123"),
      "Idempotent-Replayed": header(
        "`true` when this answer replays an earlier request with the same Idempotency-Key."
      )
    }
  }
}

/** IETF httpapi ratelimit-headers, draft 11: on every answer of an operation that is rate limited. */
const rateLimitHeaders: Json = {
  "RateLimit-Policy": header(
    "The limit that applies: requests per window (`w`, seconds), per API key or, without a valid key, per client address.",
    '"api-key";q=10000;w=60'
  ),
  RateLimit: header(
    "What is left of it: requests (`r`) and seconds until the bucket is full again (`t`).",
    '"api-key";r=9999;t=1'
  )
}

const unauthorizedHeaders: Json = {
  "WWW-Authenticate": header("RFC 6750 challenge.", 'Bearer realm="petstore", error="invalid_token"')
}

/** `#/components/schemas/PetEncoded` → `#/components/schemas/Pet`, wherever a reference occurs. */
const renameReferences = (value: unknown, renamed: ReadonlyMap<string, string>): unknown => {
  if (Array.isArray(value)) return value.map((item) => renameReferences(item, renamed))
  if (!isObject(value)) return value
  const result: Json = {}
  for (const [key, item] of Object.entries(value)) {
    result[key] =
      key === "$ref" && typeof item === "string"
        ? (renamed.get(item) ?? item)
        : renameReferences(item, renamed)
  }
  return result
}

/** Component schemas under the names of their values, when no other schema has that name. */
const withoutEncodedSuffix = (document: Json): Json => {
  const components = isObject(document.components) ? document.components : undefined
  if (components === undefined || !isObject(components.schemas)) return document
  const schemas = components.schemas
  const names = new Map<string, string>()
  for (const name of Object.keys(schemas)) {
    const plain = name.replace(/Encoded$/, "")
    names.set(name, plain !== name && !(plain in schemas) ? plain : name)
  }
  const renamed = new Map<string, string>()
  for (const [from, to] of names) {
    if (from !== to) renamed.set(`#/components/schemas/${from}`, `#/components/schemas/${to}`)
  }
  if (renamed.size === 0) return document
  const corrected = renameReferences(document, renamed)
  if (!isObject(corrected) || !isObject(corrected.components) || !isObject(corrected.components.schemas))
    return document
  const correctedSchemas = corrected.components.schemas
  corrected.components.schemas = Object.fromEntries(
    Object.entries(correctedSchemas).map(([name, schema]) => [names.get(name) ?? name, schema])
  )
  return corrected
}

/** `anyOf` with one member is that member (`HttpApi` wraps a one-word enumeration so). */
const withoutSingleAnyOf = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutSingleAnyOf)
  if (!isObject(value)) return value
  const result: Json = {}
  for (const [key, item] of Object.entries(value)) result[key] = withoutSingleAnyOf(item)
  const members = result.anyOf
  if (!Array.isArray(members) || members.length !== 1 || !isObject(members[0])) return result
  const { anyOf: _single, ...rest } = result
  return { ...members[0], ...rest }
}

/** Applies the corrections; the input is the document `OpenApi.fromApi` generated. */
export const correctOpenApiDocument = (generated: Record<string, unknown>): Record<string, unknown> => {
  const simplified = withoutSingleAnyOf(withoutEncodedSuffix(generated))
  const document = isObject(simplified) ? simplified : generated
  const paths = isObject(document.paths) ? document.paths : {}
  for (const pathItem of Object.values(paths)) {
    if (!isObject(pathItem)) continue
    for (const operation of Object.values(pathItem)) {
      if (!isObject(operation) || !isObject(operation.responses)) continue
      const responses = operation.responses
      const operationId =
        typeof operation.operationId === "string" ? operation.operationId.split(".").pop() : undefined
      // A parameter says what it is for, as its schema does.
      for (const parameter of Array.isArray(operation.parameters) ? operation.parameters : []) {
        if (!isObject(parameter) || parameter.description !== undefined || !isObject(parameter.schema))
          continue
        if (typeof parameter.schema.description === "string")
          parameter.description = parameter.schema.description
      }
      for (const [status, response] of Object.entries(responses)) {
        if (!isObject(response)) continue
        const headers: Json = {
          "X-Request-Id": requestIdHeader,
          ...(isObject(response.headers) ? response.headers : {})
        }
        if (operation.deprecated === true) Object.assign(headers, deprecationHeaders)
        if (status === "401") Object.assign(headers, unauthorizedHeaders)
        if (status === "503") headers["Retry-After"] = header("Seconds to wait before retrying.", "5")
        // An operation that can answer 429 is rate limited, whatever it answers.
        if (isObject(responses["429"])) Object.assign(headers, rateLimitHeaders)
        if (status === "429")
          headers["Retry-After"] = header("Seconds until the next request is allowed.", "20")
        const specific = operationId === undefined ? undefined : extraHeaders[operationId]?.[status]
        if (specific !== undefined) Object.assign(headers, specific)
        response.headers = headers
      }
    }
  }
  return document
}
