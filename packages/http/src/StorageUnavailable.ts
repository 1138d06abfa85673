/**
 * A storage failure as the client sees it: 503, with the cause logged for operators only.
 */
import { Unavailable } from "@petstore/api"
import type { StorageError } from "@petstore/kernel"
import { Effect } from "effect"

export const storageUnavailable = (error: StorageError) =>
  Effect.andThen(
    Effect.logWarning(`storage failed during ${error.operation}`, error.cause),
    Effect.fail(
      new Unavailable({ code: "unavailable", message: "the service is temporarily unavailable", status: 503 })
    )
  )
