/**
 * The `JsonBody` middleware: a body must be declared as JSON, must fit in 64 KiB and must parse.
 *
 * A declared `Content-Length` over the limit is refused before a byte of the body is read. A body
 * streamed without one is read here, up to the limit: past it the rest is drained and discarded (never
 * kept in memory) while the 413 is sent, so the client sees the answer instead of a reset connection.
 * Malformed JSON, and JSON nesting deeper than `maxJsonNesting`, is refused here with its own message;
 * its fields are then `HttpApi`'s to decode.
 */
import type { Readable } from "node:stream"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import {
  apiError,
  InvalidRequest,
  JsonBody,
  maxJsonNesting,
  maxRequestBodyBytes,
  type PayloadTooLarge,
  UnsupportedMediaType
} from "@petstore/api"
import { Effect, Layer, Option } from "effect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import { bodyTooLarge, malformedJsonBody } from "./ErrorResponse.js"
import { nestsDeeperThan } from "./JsonNesting.js"

/**
 * `application/json`, with or without parameters such as `charset`. Other `+json` types are refused
 * (415): the operations define no such media type, and their bodies would not be read as JSON.
 */
export const isJsonMediaType = (contentType: string | undefined): boolean => {
  if (contentType === undefined) return false
  const essence = contentType.split(";")[0]?.trim().toLowerCase() ?? ""
  return essence === "application/json"
}

const notJson = apiError(
  UnsupportedMediaType,
  "unsupported_media_type",
  "Content-Type: must be application/json"
)

const tooDeep = apiError(
  InvalidRequest,
  "invalid_request",
  `body: must not nest arrays and objects more than ${maxJsonNesting} levels deep`
)

/** The whole body if it fits in `limit` bytes; past the limit the rest is drained unread. */
const readAtMost = (source: Readable, limit: number) =>
  Effect.callback<Option.Option<Buffer>>((resume) => {
    const chunks: Array<Buffer> = []
    let size = 0
    let exceeded = false
    source.on("data", (chunk: Buffer) => {
      if (exceeded) return
      size += chunk.length
      if (size > limit) {
        exceeded = true
        resume(Effect.succeed(Option.none()))
      } else {
        chunks.push(chunk)
      }
    })
    source.once("end", () => {
      if (!exceeded) resume(Effect.succeed(Option.some(Buffer.concat(chunks))))
    })
    source.once("error", () => {
      if (!exceeded) resume(Effect.succeed(Option.none()))
    })
  })

const withBufferedBody = (request: HttpServerRequest.HttpServerRequest, body: Buffer) => {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (name !== "transfer-encoding") headers.set(name, value)
  }
  return HttpServerRequest.fromWeb(
    new Request(new URL(`http://localhost${request.url}`), { method: request.method, headers, body })
  )
}

/** The body's JSON value (`undefined` for an empty body, left to the operation's decoding). */
const parseJson = (text: string): Option.Option<unknown> => {
  if (text === "") return Option.some(undefined)
  try {
    return Option.some(JSON.parse(text))
  } catch {
    return Option.none()
  }
}

/** A body that passed the checks: the request to decode it from, and the JSON value it holds. */
export interface CheckedJsonBody {
  readonly request: HttpServerRequest.HttpServerRequest
  readonly json: unknown
}

/**
 * The checks of a JSON body in the contract's order: declared size, media type, size as read, nesting,
 * syntax.
 * The middleware hands the request on to `HttpApi`; a plain route decodes `json` itself, parsed once.
 */
export const checkJsonBody = (
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<CheckedJsonBody, PayloadTooLarge | UnsupportedMediaType | InvalidRequest> => {
  const length = request.headers["content-length"]
  if (length !== undefined && Number(length) > maxRequestBodyBytes) return Effect.fail(bodyTooLarge)
  if (!isJsonMediaType(request.headers["content-type"])) return Effect.fail(notJson)
  const streamed = length === undefined && request.headers["transfer-encoding"] !== undefined
  const buffered = streamed
    ? Effect.flatMap(
        readAtMost(NodeHttpServerRequest.toIncomingMessage(request), maxRequestBodyBytes),
        (body) =>
          Option.isNone(body)
            ? Effect.fail(bodyTooLarge)
            : Effect.succeed(withBufferedBody(request, body.value))
      )
    : Effect.succeed(request)
  return Effect.flatMap(buffered, (readable) =>
    // A body that cannot be read is the lifecycle's to answer (413 past the limit, else 400).
    Effect.flatMap(Effect.orDie(readable.text), (text) => {
      if (nestsDeeperThan(text, maxJsonNesting)) return Effect.fail(tooDeep)
      const json = parseJson(text)
      return Option.isNone(json)
        ? Effect.fail(malformedJsonBody)
        : Effect.succeed({ request: readable, json: json.value })
    })
  )
}

export const JsonBodyLive = Layer.succeed(JsonBody, (httpEffect) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.flatMap(checkJsonBody(request), ({ request: accepted }) =>
      accepted === request
        ? httpEffect
        : Effect.provideService(httpEffect, HttpServerRequest.HttpServerRequest, accepted)
    )
  )
)
