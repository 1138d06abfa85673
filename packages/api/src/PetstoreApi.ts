/**
 * The whole HTTP contract of the service: the server implements it, the OpenAPI document is generated
 * from it and the typed client is derived from it.
 */
import * as HttpApi from "effect/http-api/HttpApi"
import * as OpenApi from "effect/http-api/OpenApi"
import { ClaimsGroup } from "./ClaimsGroup.js"
import { EventsGroup } from "./EventsGroup.js"
import { HealthGroup } from "./HealthGroup.js"
import { serviceResponseHeaders } from "./OpenApiDocument.js"
import { PetsGroup } from "./PetsGroup.js"
import { EdgeGroup, ProjectsGroup } from "./ProjectsGroup.js"
import { WebhooksGroup } from "./WebhooksGroup.js"

export const apiVersion = "1.0.0"

export class PetstoreApi extends HttpApi.make("petstore")
  .add(PetsGroup, ProjectsGroup, EventsGroup, WebhooksGroup, ClaimsGroup, EdgeGroup, HealthGroup)
  .annotate(OpenApi.Title, "Petstore")
  .annotate(OpenApi.Version, apiVersion)
  .annotate(OpenApi.Transform, serviceResponseHeaders)
  .annotate(
    OpenApi.Description,
    "A pet store catalogue. Every error is `{code, message, status}`. Authenticate with `Authorization: Bearer <key>`."
  ) {}
