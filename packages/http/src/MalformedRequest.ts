/**
 * Requests Node's HTTP parser refuses before any handler sees them (a request line and headers over
 * Node's 16 KiB, a header with forbidden characters, anything that is not HTTP/1.1) still get the
 * service's error body: `400 invalid_request`, then the connection is closed, since the parser cannot
 * tell where the next request would start. The parser could not read the client's `X-Request-Id`, so
 * the answer carries a generated one, like any request that sent none. A connection that breaks or
 * times out is simply closed.
 */
import type { Duplex } from "node:stream"
import { apiError, InvalidRequest } from "@petstore/api"
import { errorBody } from "./ErrorResponse.js"
import { jsonContentType, newRequestId } from "./RequestLifecycle.js"

const messageFor = (code: string | undefined): string =>
  code === "HPE_HEADER_OVERFLOW"
    ? "the request line and headers are larger than 16 KiB"
    : "the request is not well-formed HTTP/1.1"

/** Answers the refused request; the request id it answered with, or undefined when it only closed. */
export const answerMalformedRequest = (
  error: Error & { readonly code?: string },
  socket: Duplex
): string | undefined => {
  if (!socket.writable || error.code === "ECONNRESET" || error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    socket.destroy()
    return undefined
  }
  const requestId = newRequestId()
  const body = JSON.stringify(errorBody(apiError(InvalidRequest, "invalid_request", messageFor(error.code))))
  socket.end(
    "HTTP/1.1 400 Bad Request\r\n" +
      `content-type: ${jsonContentType}\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${requestId}\r\n` +
      "connection: close\r\n\r\n" +
      body
  )
  return requestId
}
