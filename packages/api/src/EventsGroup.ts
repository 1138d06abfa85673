/**
 * A project's events (contract section 5): every change of its domains and their certificates, oldest
 * first, paged exactly like `GET /v1/pets` (`limit`, the keyset cursor `after`, the next page in
 * `Link`). The events are written in the same transaction as the change they tell (an outbox) and
 * kept 30 days. Another account's project reads as one that does not exist (404).
 */
import { DomainEvent, DomainEventId } from "@petstore/events"
import { Schema } from "effect"
import { flow } from "effect/Function"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as OpenApi from "effect/http-api/OpenApi"
import { InvalidRequest, NotFound } from "./ApiErrors.js"
import { Authentication } from "./Authentication.js"
import { withResponseHeaders } from "./OpenApiDocument.js"
import { limitDescription, limitParameter, nextPageHeaders } from "./Paging.js"
import { describeParameters, textParameter } from "./QueryParameters.js"

export const ListEventsParameters = Schema.Struct({
  limit: Schema.optionalKey(limitParameter),
  after: Schema.optionalKey(textParameter(DomainEventId, "must be an event id"))
})

export const Events = Schema.Array(DomainEvent).annotate({
  identifier: "Events",
  description: "A page of events, oldest first."
})

const listEvents = HttpApiEndpoint.get("listEvents", "/projects/:projectId/events", {
  params: { projectId: Schema.String },
  query: ListEventsParameters,
  success: Events,
  error: [InvalidRequest, NotFound]
})
  .middleware(Authentication)
  .annotate(OpenApi.Summary, "A project's events, oldest first (kept 30 days)")
  .annotate(
    OpenApi.Description,
    'Every change of the project\'s domains and certificates, in the order it happened, with `data` the domain after the change (before it, for `domain.removed`). Each event is stored in the same transaction as its change. When more follow, the `Link` header has the `rel="next"` page.'
  )
  .annotate(
    OpenApi.Transform,
    flow(
      describeParameters({
        limit: limitDescription("events"),
        after: {
          value: DomainEventId,
          description: 'Keyset cursor: only events after this one. Taken from the `Link rel="next"` header.'
        }
      }),
      withResponseHeaders(
        nextPageHeaders("events", '</v1/projects/docs/events?limit=20&after=123>; rel="next"')
      )
    )
  )

export class EventsGroup extends HttpApiGroup.make("events").add(listEvents).prefix("/v1") {}
