/**
 * Corrections to the generated OpenAPI document, so that it describes what the server really sends:
 * the service's own 400 body instead of the platform's decode error, and the response headers that
 * `HttpApi` (v3) has no schema for.
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

/** Applies the corrections; the input is the document `OpenApi.fromApi` generated. */
export const correctOpenApiDocument = (document: Record<string, unknown>): Record<string, unknown> => {
  const paths = isObject(document.paths) ? document.paths : {}
  for (const pathItem of Object.values(paths)) {
    if (!isObject(pathItem)) continue
    for (const operation of Object.values(pathItem)) {
      if (!isObject(operation) || !isObject(operation.responses)) continue
      const responses = operation.responses
      const operationId =
        typeof operation.operationId === "string" ? operation.operationId.split(".").pop() : undefined
      // The platform documents its own decode error as a 400 on every operation with inputs. Where
      // the operation declares `InvalidRequest` that is the body sent; where it declares none (the
      // path of getPet is any text), the operation never answers 400 at all.
      const invalid = responses["400"]
      if (isObject(invalid)) {
        if (JSON.stringify(invalid).includes("#/components/schemas/InvalidRequest")) {
          responses["400"] = {
            description: "The request is malformed; the message names the field and the rule.",
            content: { "application/json": { schema: { $ref: "#/components/schemas/InvalidRequest" } } }
          }
        } else {
          delete responses["400"]
        }
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
  const components = isObject(document.components) ? document.components : undefined
  if (components !== undefined && isObject(components.schemas)) {
    const {
      HttpApiDecodeError: _decodeError,
      Issue: _issue,
      PropertyKey: _propertyKey,
      ...schemas
    } = components.schemas
    components.schemas = schemas
  }
  return document
}
