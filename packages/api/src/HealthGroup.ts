/**
 * Probes for process supervisors: liveness and readiness. Public, outside the versioned API.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Unavailable } from "./ApiErrors.js"

export class Health extends Schema.Class<Health>("Health")({
  status: Schema.Literal("ok"),
  checks: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String }))
}) {}

export class HealthGroup extends HttpApiGroup.make("health")
  .add(
    HttpApiEndpoint.get("liveness", "/healthz")
      .addSuccess(Health)
      .annotate(OpenApi.Summary, "The process is alive")
  )
  .add(
    HttpApiEndpoint.get("readiness", "/readyz")
      .addSuccess(Health)
      .addError(Unavailable)
      .annotate(OpenApi.Summary, "Storage is reachable")
  ) {}
