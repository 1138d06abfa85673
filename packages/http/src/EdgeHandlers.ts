/**
 * The serving edge's question, answered from current state on every call, so a removal or a
 * downgrade takes effect on the very next request.
 */
import { HttpApiBuilder } from "@effect/platform"
import { NotFound, PetstoreApi } from "@petstore/api"
import { resolveEdge } from "@petstore/domain"
import { Effect } from "effect"
import { storageUnavailable } from "./StorageUnavailable.js"

export const EdgeHandlers = HttpApiBuilder.group(PetstoreApi, "edge", (handlers) =>
  handlers.handle("resolveHost", ({ urlParams }) =>
    Effect.flatMap(resolveEdge(urlParams.host), (decision) =>
      decision.action === "none"
        ? Effect.fail(
            new NotFound({
              code: "not_found",
              message: `nothing is served at ${JSON.stringify(urlParams.host)}`,
              status: 404
            })
          )
        : Effect.succeed(decision)
    ).pipe(Effect.catchTag("StorageError", storageUnavailable))
  )
)
