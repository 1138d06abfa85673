/**
 * Probes for process supervisors: liveness and readiness. Public, outside the versioned API.
 */
import { Schema } from "effect"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as OpenApi from "effect/http-api/OpenApi"
import { Unavailable } from "./ApiErrors.js"
import { NamedClass } from "./NamedClass.js"

export class Health extends NamedClass<Health>("Health")({
  status: Schema.Literal("ok"),
  checks: Schema.optionalKey(Schema.Record(Schema.String, Schema.String))
}) {}

export class HealthGroup extends HttpApiGroup.make("health")
  .add(
    HttpApiEndpoint.get("liveness", "/healthz", { success: Health }).annotate(
      OpenApi.Summary,
      "The process is alive"
    )
  )
  .add(
    HttpApiEndpoint.get("readiness", "/readyz", { success: Health, error: Unavailable }).annotate(
      OpenApi.Summary,
      "Storage is reachable"
    )
  ) {}
