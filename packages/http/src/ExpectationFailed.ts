/**
 * A request whose `Expect` asks for anything but `100-continue` (which Node answers itself) is refused
 * with `417 expectation_failed` in the one error body, before its key or body is looked at, as Node
 * would refuse it, but through the same lifecycle as any request (request id, log line, metrics).
 * The connection is closed after the answer: the client may or may not send the body it announced,
 * so where its next request would start is unknown.
 */
import { apiError, ExpectationFailed } from "@petstore/api"
import { Effect } from "effect"
import { errorResponse, prebuiltError } from "./ErrorResponse.js"

const expectationFailed = prebuiltError(
  apiError(ExpectationFailed, "expectation_failed", "Expect: only 100-continue is supported")
)

/** The application that answers every request it is given with the 417. */
export const expectationFailedApp = Effect.succeed(errorResponse(expectationFailed, { connection: "close" }))
