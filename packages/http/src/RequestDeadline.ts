/**
 * The server-side deadline of every request, kept by one Node timer per request rather than by an
 * Effect race (which forks fibers and cost about a third of a simple request's CPU). When the timer
 * fires before the response was sent, the client gets the one error body (503 `unavailable`, with
 * `Retry-After` and its request id) and the request's fiber is interrupted, so a hung dependency
 * holds nothing for longer than the deadline.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { HttpServerRequest } from "@effect/platform"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { Unavailable } from "@petstore/api"
import { Effect, type Fiber, FiberId } from "effect"
import { errorBody, unavailableRetryAfterSeconds } from "./ErrorResponse.js"
import { acceptableRequestId, jsonContentType, newRequestId } from "./RequestLifecycle.js"

/** The fiber answering each request in flight, by its Node request. */
const fibers = new WeakMap<IncomingMessage, Fiber.RuntimeFiber<unknown, unknown>>()

/** Records the current fiber as the one answering this request (the deadline interrupts it). */
export const registerRequestFiber: Effect.Effect<void, never, HttpServerRequest.HttpServerRequest> =
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.withFiberRuntime<void>((fiber) => {
      fibers.set(NodeHttpServerRequest.toIncomingMessage(request), fiber)
      return Effect.void
    })
  )

/**
 * Gives the request a request id (the client's when acceptable), so that the deadline's answer and
 * the application's carry the same one.
 */
export const ensureRequestId = (request: IncomingMessage): string => {
  const header = request.headers["x-request-id"]
  if (typeof header === "string" && acceptableRequestId(header)) return header
  const generated = newRequestId()
  request.headers["x-request-id"] = generated
  return generated
}

const deadlineBody = JSON.stringify(
  errorBody(
    new Unavailable({ code: "unavailable", message: "the request took too long; retry later", status: 503 })
  )
)

/**
 * Arms the deadline of one request; `onExpired` is told when it answered (to log it). Disarmed when
 * the response closes.
 */
export const armDeadline = (
  request: IncomingMessage,
  response: ServerResponse,
  timeoutMillis: number,
  onExpired: (requestId: string) => void
): void => {
  const timer = setTimeout(() => {
    if (response.headersSent) return
    const requestId = ensureRequestId(request)
    response.writeHead(503, {
      "content-type": jsonContentType,
      "content-length": Buffer.byteLength(deadlineBody),
      "retry-after": String(unavailableRetryAfterSeconds),
      "x-request-id": requestId
    })
    response.end(deadlineBody)
    fibers.get(request)?.unsafeInterruptAsFork(FiberId.none)
    onExpired(requestId)
  }, timeoutMillis)
  response.once("close", () => clearTimeout(timer))
}
