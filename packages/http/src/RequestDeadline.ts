/**
 * The server-side deadline of every request, kept by one Node timer per request rather than by an
 * Effect race (which forks fibers and cost about a third of a simple request's CPU). The request
 * lifecycle arms it as the request's fiber starts, with that fiber and the request's id. When the
 * timer fires before the response was sent, the client gets the one error body (503 `unavailable`,
 * with `Retry-After` and its request id) and the fiber is interrupted, so a hung dependency holds
 * nothing for longer than the deadline.
 */
import { ServerResponse } from "node:http"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { apiError, Unavailable } from "@petstore/api"
import type { Fiber } from "effect"
import type { HttpServerRequest } from "effect/http/HttpServerRequest"
import { errorBody, retryAfterUnavailable } from "./ErrorResponse.js"
import type { RequestRecord } from "./RequestLifecycle.js"
import { jsonContentType } from "./ResponseHeaders.js"

const deadlineError = apiError(Unavailable, "unavailable", "the request took too long; retry later")
const deadlineBody = JSON.stringify(errorBody(deadlineError))
const deadlineBodyLength = Buffer.byteLength(deadlineBody)

/** Arms the deadline of the request `fiber` answers, under `requestId`. */
export type ArmDeadline = (
  fiber: Fiber.Fiber<unknown, unknown>,
  request: HttpServerRequest,
  requestId: string
) => void

/**
 * Deadlines of `timeoutMillis`; `onExpired` is told of each request the deadline answered (to log
 * it). A deadline is disarmed when its response closes, sent or not.
 */
export const makeRequestDeadline = (
  timeoutMillis: number,
  onExpired: (expired: RequestRecord) => void
): ArmDeadline => {
  const expire = (
    fiber: Fiber.Fiber<unknown, unknown>,
    request: ReturnType<typeof NodeHttpServerRequest.toIncomingMessage>,
    response: ReturnType<typeof NodeHttpServerRequest.toServerResponse>,
    requestId: string,
    startedAt: number
  ) => {
    if (response.headersSent) return
    const headers = {
      "content-type": jsonContentType,
      "content-length": deadlineBodyLength,
      "retry-after": retryAfterUnavailable,
      "x-request-id": requestId
    }
    // `node:http`'s own response; the other member of the union is HTTP/2's, answered alike.
    if (response instanceof ServerResponse)
      response.writeHead(deadlineError.status, headers).end(deadlineBody)
    else response.writeHead(deadlineError.status, headers).end(deadlineBody)
    fiber.interruptUnsafe()
    onExpired({
      requestId,
      method: request.method ?? "",
      path: (request.url ?? "").split("?")[0] ?? "",
      status: deadlineError.status,
      durationMs: Date.now() - startedAt
    })
  }
  return (fiber, request, requestId) => {
    const response = NodeHttpServerRequest.toServerResponse(request)
    const timer = setTimeout(
      expire,
      timeoutMillis,
      fiber,
      NodeHttpServerRequest.toIncomingMessage(request),
      response,
      requestId,
      Date.now()
    )
    response.on("close", () => clearTimeout(timer))
  }
}
