/**
 * The whole HTTP contract of the service: the server implements it, the OpenAPI document is generated
 * from it and the typed client is derived from it.
 */
import { HttpApi, OpenApi } from "@effect/platform"
import { HealthGroup } from "./HealthGroup.js"
import { correctOpenApiDocument } from "./OpenApiDocument.js"
import { PetsGroup } from "./PetsGroup.js"
import { EdgeGroup, ProjectsGroup } from "./ProjectsGroup.js"

export const apiVersion = "1.0.0"

export class PetstoreApi extends HttpApi.make("petstore")
  .add(PetsGroup)
  .add(ProjectsGroup)
  .add(EdgeGroup)
  .add(HealthGroup)
  .annotate(OpenApi.Title, "Petstore")
  .annotate(OpenApi.Version, apiVersion)
  .annotate(OpenApi.Transform, correctOpenApiDocument)
  .annotate(
    OpenApi.Description,
    "A pet store catalogue. Every error is `{code, message, status}`. Authenticate with `Authorization: Bearer <key>`."
  ) {}
