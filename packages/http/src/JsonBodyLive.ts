/**
 * The `JsonBody` middleware: a body must be declared as JSON and must fit in 64 KiB.
 *
 * A declared `Content-Length` over the limit is refused before a byte of the body is read. A body
 * streamed without one is read here, up to the limit: past it the rest is drained and discarded (never
 * kept in memory) while the 413 is sent, so the client sees the answer instead of a reset connection.
 */
import type { IncomingMessage } from "node:http"
import { HttpServerRequest } from "@effect/platform"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { JsonBody, maxRequestBodyBytes, PayloadTooLarge, UnsupportedMediaType } from "@petstore/api"
import { Effect, Layer, Option } from "effect"

/**
 * `application/json`, with or without parameters such as `charset`. Other `+json` types are refused
 * (415): the operations define no such media type, and their bodies would not be read as JSON.
 */
export const isJsonMediaType = (contentType: string | undefined): boolean => {
  if (contentType === undefined) return false
  const essence = contentType.split(";")[0]?.trim().toLowerCase() ?? ""
  return essence === "application/json"
}

const tooLarge = new PayloadTooLarge({
  code: "payload_too_large",
  message: `body: must be at most ${maxRequestBodyBytes} bytes`,
  status: 413
})

/** The whole body if it fits in `limit` bytes; past the limit the rest is drained unread. */
const readAtMost = (source: IncomingMessage, limit: number) =>
  Effect.async<Option.Option<Buffer>>((resume) => {
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

export const JsonBodyLive = Layer.succeed(
  JsonBody,
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const length = request.headers["content-length"]
    if (length !== undefined && Number(length) > maxRequestBodyBytes) return yield* Effect.fail(tooLarge)
    if (!isJsonMediaType(request.headers["content-type"])) {
      return yield* Effect.fail(
        new UnsupportedMediaType({
          code: "unsupported_media_type",
          message: "Content-Type: must be application/json",
          status: 415
        })
      )
    }
    if (length !== undefined || request.headers["transfer-encoding"] === undefined) return request
    const body = yield* readAtMost(NodeHttpServerRequest.toIncomingMessage(request), maxRequestBodyBytes)
    if (Option.isNone(body)) return yield* Effect.fail(tooLarge)
    return withBufferedBody(request, body.value)
  })
)
