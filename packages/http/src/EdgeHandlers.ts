/**
 * The serving edge's question, answered from current state on every call, so a removal or a
 * downgrade takes effect on the very next request.
 */
import { NotFound, PetstoreApi } from "@petstore/api"
import { resolveEdge } from "@petstore/custom-domains"
import { Effect } from "effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { storageUnavailable } from "./StorageUnavailable.js"

export const EdgeHandlers = HttpApiBuilder.group(PetstoreApi, "edge", (handlers) =>
  handlers.handle("resolveHost", ({ query }) =>
    Effect.flatMap(resolveEdge(query.host), (decision) =>
      decision.action === "none"
        ? Effect.fail(
            new NotFound({
              code: "not_found",
              message: `nothing is served at ${JSON.stringify(query.host)}`,
              status: 404
            })
          )
        : Effect.succeed(decision)
    ).pipe(Effect.catchTag("StorageError", storageUnavailable))
  )
)
