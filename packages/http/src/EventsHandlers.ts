/**
 * The events handler: a project's events for the key's account, oldest first, and the `Link` to the
 * next page when more follow, built as the animals' is.
 */
import { PetstoreApi } from "@petstore/api"
import { defaultListLimit } from "@petstore/catalogue"
import { listProjectEvents } from "@petstore/events"
import { Effect, Option } from "effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { projectNotFound } from "./DomainErrors.js"
import { nextPageLink } from "./NextPageLink.js"
import { projectScope } from "./ProjectScope.js"
import { appendResponseHeaders } from "./ResponseHeaders.js"
import { storageUnavailable } from "./StorageUnavailable.js"

export const EventsHandlers = HttpApiBuilder.group(PetstoreApi, "events", (handlers) =>
  handlers.handle("listEvents", ({ params, query }) =>
    Effect.gen(function* () {
      const { account, id } = yield* projectScope(params.projectId)
      const limit = query.limit ?? defaultListLimit
      const after = Option.fromUndefinedOr(query.after)
      const page = yield* listProjectEvents(account, id, { after, limit })
      if (Option.isSome(page.nextAfter)) {
        const link = nextPageLink(`/v1/projects/${id}/events`, [
          ["limit", limit],
          ["after", page.nextAfter.value]
        ])
        yield* appendResponseHeaders({ link })
      }
      return page.events
    }).pipe(Effect.catchTags({ ProjectNotFound: projectNotFound, StorageError: storageUnavailable }))
  )
)
