/**
 * A storage failure as the client sees it: 503, with the cause logged for operators only. The same
 * answer whichever request met it (an operation, or the key lookup before it), made once.
 */
import { apiError, Unavailable } from "@petstore/api"
import type { StorageError } from "@petstore/kernel"
import { Effect } from "effect"
import { prebuiltError } from "./ErrorResponse.js"

export const temporarilyUnavailable = prebuiltError(
  apiError(Unavailable, "unavailable", "the service is temporarily unavailable")
)

export const storageUnavailable = (error: StorageError) =>
  Effect.andThen(
    Effect.logWarning(`storage failed during ${error.operation}`, error.cause),
    Effect.fail(temporarilyUnavailable)
  )
