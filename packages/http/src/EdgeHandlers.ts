/**
 * The serving edge's question, answered from current state on every call, so a removal or a
 * downgrade takes effect on the very next request.
 */
import { apiError, NotFound, PetstoreApi } from "@petstore/api"
import { resolveEdge } from "@petstore/serving"
import { Effect } from "effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { storageUnavailable } from "./StorageUnavailable.js"

export const EdgeHandlers = HttpApiBuilder.group(PetstoreApi, "edge", (handlers) =>
  handlers.handle("resolveHost", ({ query }) =>
    Effect.flatMap(resolveEdge(query.host), (decision) =>
      decision.action === "none"
        ? Effect.fail(apiError(NotFound, "not_found", `nothing is served at ${JSON.stringify(query.host)}`))
        : Effect.succeed(decision)
    ).pipe(Effect.catchTag("StorageError", storageUnavailable))
  )
)
