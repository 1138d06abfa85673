/**
 * The OpenAPI document generated from `PetstoreApi` (what clients and the server both see).
 */
import { describe, expect, it } from "@effect/vitest"
import { getPetDeprecatedAt, getPetRemovedAt } from "@petstore/catalogue"
import * as OpenApi from "effect/http-api/OpenApi"
import { PetstoreApi } from "../src/PetstoreApi.js"

type Operation = {
  readonly operationId: string
  readonly summary?: string
  readonly parameters?: ReadonlyArray<{
    readonly name: string
    readonly in: string
    readonly schema: unknown
  }>
  readonly deprecated?: boolean
  readonly security?: ReadonlyArray<Record<string, ReadonlyArray<string>>>
  readonly responses: Record<
    string,
    {
      readonly headers?: Record<string, { readonly schema?: { readonly example?: string } }>
      readonly content?: unknown
    }
  >
}

const document = OpenApi.fromApi(PetstoreApi) as unknown as {
  readonly openapi: string
  readonly info: { readonly version: string }
  readonly paths: Record<string, Record<string, Operation>>
  readonly components: { readonly schemas: Record<string, unknown> }
}

const operation = (path: string, method: string): Operation => {
  const found = document.paths[path]?.[method]
  if (found === undefined) expect.fail(`${method} ${path} is not documented`)
  return found
}

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 for API version 1.0.0", () => {
    expect(document.openapi).toBe("3.1.0")
    expect(document.info.version).toBe("1.0.0")
  })

  it("documents the three operations with their statuses", () => {
    expect(Object.keys(operation("/v1/pets", "get").responses).sort()).toEqual([
      "200",
      "400",
      "401",
      "429",
      "500",
      "503"
    ])
    expect(Object.keys(operation("/v1/pets", "post").responses).sort()).toEqual([
      "201",
      "400",
      "401",
      "409",
      "413",
      "415",
      "422",
      "429",
      "500",
      "503"
    ])
    expect(Object.keys(operation("/v1/pets/{petId}", "get").responses).sort()).toEqual([
      "200",
      "401",
      "404",
      "410",
      "429",
      "500",
      "503"
    ])
  })

  it("describes the list's query parameters by their values: integers with their ranges", () => {
    const parameters = Object.fromEntries(
      (operation("/v1/pets", "get").parameters ?? []).map((parameter) => [parameter.name, parameter])
    )
    expect(parameters.limit).toMatchObject({
      in: "query",
      schema: { type: "integer", minimum: 1, maximum: 100, default: 20 }
    })
    expect(parameters.after).toMatchObject({
      in: "query",
      schema: { type: "integer", format: "int64", minimum: 1, maximum: 9007199254740991 }
    })
    expect(parameters.status).toMatchObject({
      in: "query",
      schema: { type: "string", enum: ["available", "pending", "sold"] }
    })
  })

  it("states the rules of project ids and idempotency keys", () => {
    expect(document.components.schemas.ProjectId).toMatchObject({
      type: "string",
      minLength: 1,
      maxLength: 63
    })
    expect(document.components.schemas.IdempotencyKey).toMatchObject({
      type: "string",
      minLength: 1,
      maxLength: 255
    })
  })

  it("describes instants as date-time strings", () => {
    expect(document.components.schemas.Timestamp).toMatchObject({ type: "string", format: "date-time" })
    expect(document.components.schemas.Domain).toMatchObject({
      properties: { createdAt: { $ref: "#/components/schemas/Timestamp" } }
    })
    expect(document.components.schemas.Deploy).toMatchObject({
      properties: { at: { $ref: "#/components/schemas/Timestamp" } }
    })
  })

  it("marks only getPet deprecated, with its headers on every answer", () => {
    const getPet = operation("/v1/pets/{petId}", "get")
    expect(getPet.deprecated).toBe(true)
    expect(operation("/v1/pets", "get").deprecated).toBeUndefined()
    for (const response of Object.values(getPet.responses)) {
      expect(Object.keys(response.headers ?? {})).toEqual(
        expect.arrayContaining(["Deprecation", "Sunset", "Link"])
      )
    }
  })

  it("requires the bearer key on every animal operation and on no probe", () => {
    for (const [path, method] of [
      ["/v1/pets", "get"],
      ["/v1/pets", "post"],
      ["/v1/pets/{petId}", "get"]
    ] as const) {
      expect(operation(path, method).security).toEqual([{ apiKey: [] }])
    }
    expect(operation("/healthz", "get").security ?? []).toEqual([])
    expect(operation("/readyz", "get").security ?? []).toEqual([])
  })

  it("describes the service's own 400 body, not the platform's decode error", () => {
    expect(JSON.stringify(document)).not.toContain("HttpApiDecodeError")
    expect(operation("/v1/pets", "post").responses["400"]?.content).toEqual({
      "application/json": { schema: { $ref: "#/components/schemas/InvalidRequest" } }
    })
    expect(document.components.schemas.InvalidRequest).toBeDefined()
  })

  it("documents Location on 201, Link on 200 of the list and WWW-Authenticate on 401", () => {
    expect(operation("/v1/pets", "post").responses["201"]?.headers).toHaveProperty("Location")
    expect(operation("/v1/pets", "get").responses["200"]?.headers).toHaveProperty("Link")
    expect(operation("/v1/pets", "get").responses["401"]?.headers).toHaveProperty("WWW-Authenticate")
    expect(operation("/v1/pets", "get").responses["503"]?.headers).toHaveProperty("Retry-After")
  })

  it("documents the rate-limit headers on every answer of a limited operation, Retry-After on 429", () => {
    for (const [path, method] of [
      ["/v1/pets", "get"],
      ["/v1/pets", "post"],
      ["/v1/pets/{petId}", "get"]
    ] as const) {
      for (const response of Object.values(operation(path, method).responses)) {
        expect(Object.keys(response.headers ?? {})).toEqual(
          expect.arrayContaining(["RateLimit-Policy", "RateLimit"])
        )
      }
      expect(operation(path, method).responses["429"]?.headers).toHaveProperty("Retry-After")
    }
    expect(Object.keys(operation("/healthz", "get").responses["200"]?.headers ?? {})).not.toContain(
      "RateLimit"
    )
  })

  it("states the deprecation and removal dates the domain decides", () => {
    const getPet = operation("/v1/pets/{petId}", "get")
    for (const response of Object.values(getPet.responses)) {
      expect(response.headers?.Deprecation?.schema?.example).toBe(`@${getPetDeprecatedAt.getTime() / 1000}`)
      expect(response.headers?.Sunset?.schema?.example).toBe(getPetRemovedAt.toUTCString())
    }
    expect(getPet.summary).toContain(`removed on ${getPetRemovedAt.toISOString().slice(0, 10)}`)
  })

  it("documents the claims, each with the key, answering the one Claim body on 200 and 201", () => {
    const claim = { "application/json": { schema: { $ref: "#/components/schemas/Claim" } } }
    const create = operation("/v1/claims", "post")
    // 409: limit_reached, past the account's claims or pending claims.
    expect(Object.keys(create.responses).sort()).toEqual([
      "200",
      "201",
      "400",
      "401",
      "409",
      "413",
      "415",
      "429",
      "500",
      "503"
    ])
    expect(create.responses["201"]?.content).toEqual(claim)
    expect(create.responses["200"]?.content).toEqual(claim)
    expect(Object.keys(operation("/v1/claims", "get").responses).sort()).toEqual([
      "200",
      "401",
      "429",
      "500",
      "503"
    ])
    expect(operation("/v1/claims", "get").responses["200"]?.content).toEqual({
      "application/json": { schema: { $ref: "#/components/schemas/ClaimList" } }
    })
    for (const [path, method] of [
      ["/v1/claims/{apex}", "get"],
      ["/v1/claims/{apex}/verify", "post"]
    ] as const) {
      expect(Object.keys(operation(path, method).responses).sort()).toEqual([
        "200",
        "401",
        "404",
        "429",
        "500",
        "503"
      ])
      expect(operation(path, method).responses["200"]?.content).toEqual(claim)
    }
    expect(Object.keys(operation("/v1/claims/{apex}", "delete").responses).sort()).toEqual([
      "204",
      "401",
      "404",
      "429",
      "500",
      "503"
    ])
    for (const [path, method] of [
      ["/v1/claims", "post"],
      ["/v1/claims", "get"],
      ["/v1/claims/{apex}", "get"],
      ["/v1/claims/{apex}", "delete"],
      ["/v1/claims/{apex}/verify", "post"]
    ] as const) {
      expect(operation(path, method).security, `${method} ${path}`).toEqual([{ apiKey: [] }])
    }
    expect(document.components.schemas.Claim).toMatchObject({
      type: "object",
      properties: {
        apex: { $ref: "#/components/schemas/Hostname" },
        status: { type: "string", enum: ["pending", "verified"] },
        txt: { $ref: "#/components/schemas/ClaimRecord" }
      },
      required: expect.arrayContaining(["apex", "status", "txt", "verifiedAt", "lastCheckedAt"])
    })
    // The last check is shown (Verify's cool-down runs from it); nothing else of the service's
    // bookkeeping (account, next check, version).
    const claimSchema = document.components.schemas.Claim as { readonly properties: object }
    expect(Object.keys(claimSchema.properties).sort()).toEqual([
      "apex",
      "lastCheckedAt",
      "status",
      "txt",
      "verifiedAt"
    ])
    expect(document.components.schemas.ClaimList).toMatchObject({
      properties: { claims: { type: "array", items: { $ref: "#/components/schemas/Claim" } } },
      required: ["claims"]
    })
  })

  it("shows a domain's ownership record, as a named schema", () => {
    expect(document.components.schemas.Domain).toMatchObject({
      properties: { ownership: { $ref: "#/components/schemas/OwnershipRecord" } },
      required: expect.arrayContaining(["ownership"])
    })
    expect(document.components.schemas.OwnershipRecord).toMatchObject({
      type: "object",
      properties: {
        type: { type: "string", enum: ["TXT"] },
        name: { type: "string" },
        value: { type: "string" },
        required: { type: "boolean" }
      },
      required: expect.arrayContaining(["type", "name", "value", "required"])
    })
  })

  it("lists domain_claimed among the 409 codes, which adding a domain documents", () => {
    const conflict = document.components.schemas.Conflict as {
      readonly properties: { readonly code: { readonly enum: ReadonlyArray<string> } }
    }
    expect(conflict.properties.code.enum).toEqual(
      expect.arrayContaining(["conflict", "domain_in_use", "domain_claimed", "deploy_required"])
    )
    expect(operation("/v1/projects/{projectId}/domains", "post").responses["409"]?.content).toEqual({
      "application/json": { schema: { $ref: "#/components/schemas/Conflict" } }
    })
  })

  it("documents a project's events: paged like the animals, each an Event whose data is the Domain", () => {
    const listEvents = operation("/v1/projects/{projectId}/events", "get")
    expect(Object.keys(listEvents.responses).sort()).toEqual([
      "200",
      "400",
      "401",
      "404",
      "429",
      "500",
      "503"
    ])
    expect(listEvents.security).toEqual([{ apiKey: [] }])
    expect(listEvents.responses["200"]?.content).toEqual({
      "application/json": { schema: { $ref: "#/components/schemas/Events" } }
    })
    expect(listEvents.responses["200"]?.headers).toHaveProperty("Link")
    const parameters = Object.fromEntries(
      (listEvents.parameters ?? []).map((parameter) => [parameter.name, parameter])
    )
    // The very limit of the animals' list, described for events.
    expect(parameters.limit).toMatchObject({
      in: "query",
      schema: {
        type: "integer",
        minimum: 1,
        maximum: 100,
        default: 20,
        description: expect.stringContaining("events")
      }
    })
    expect(parameters.after).toMatchObject({ in: "query", schema: { type: "string" } })
    expect(parameters.projectId).toMatchObject({ in: "path" })
    expect(document.components.schemas.Events).toMatchObject({
      type: "array",
      items: { $ref: "#/components/schemas/Event" }
    })
    expect(document.components.schemas.Event).toMatchObject({
      type: "object",
      properties: {
        id: { $ref: "#/components/schemas/EventId" },
        type: {
          type: "string",
          enum: [
            "domain.added",
            "domain.verified",
            "domain.failed",
            "domain.removed",
            "domain.problems_changed",
            "certificate.issued",
            "certificate.delayed",
            "certificate.failed",
            "certificate.renewed",
            "certificate.renewal_failed"
          ]
        },
        occurredAt: { $ref: "#/components/schemas/Timestamp" },
        projectId: { $ref: "#/components/schemas/ProjectId" },
        hostname: { $ref: "#/components/schemas/Hostname" },
        data: { $ref: "#/components/schemas/Domain" }
      },
      required: ["id", "type", "occurredAt", "projectId", "hostname", "data"]
    })
  })

  it("documents a project's webhooks, each with the key; only the 201 of creation shows the secret", () => {
    const statuses = (path: string, method: string) => Object.keys(operation(path, method).responses).sort()
    const list = "/v1/projects/{projectId}/webhooks"
    const one = "/v1/projects/{projectId}/webhooks/{webhookId}"
    const deliveries = `${one}/deliveries`
    const rotate = `${one}/rotate-secret`
    expect(statuses(list, "post")).toEqual([
      "201",
      "400",
      "401",
      "404",
      "409",
      "413",
      "415",
      "429",
      "500",
      "503"
    ])
    expect(statuses(one, "patch")).toEqual(["200", "400", "401", "404", "413", "415", "429", "500", "503"])
    expect(statuses(rotate, "post")).toEqual(["200", "401", "404", "429", "500", "503"])
    for (const [path, method] of [
      [list, "get"],
      [one, "get"],
      [deliveries, "get"]
    ] as const) {
      expect(statuses(path, method), `${method} ${path}`).toEqual(["200", "401", "404", "429", "500", "503"])
    }
    expect(statuses(one, "delete")).toEqual(["204", "401", "404", "429", "500", "503"])
    for (const [path, method] of [
      [list, "post"],
      [list, "get"],
      [one, "get"],
      [one, "delete"],
      [one, "patch"],
      [rotate, "post"],
      [deliveries, "get"]
    ] as const) {
      expect(operation(path, method).security, `${method} ${path}`).toEqual([{ apiKey: [] }])
    }
    const body = (path: string, method: string, status: string) =>
      operation(path, method).responses[status]?.content
    expect(body(list, "post", "201")).toEqual({
      "application/json": { schema: { $ref: "#/components/schemas/CreatedWebhook" } }
    })
    expect(body(list, "get", "200")).toEqual({
      "application/json": { schema: { $ref: "#/components/schemas/WebhookList" } }
    })
    expect(body(one, "get", "200")).toEqual({
      "application/json": { schema: { $ref: "#/components/schemas/Webhook" } }
    })
    expect(body(deliveries, "get", "200")).toEqual({
      "application/json": { schema: { $ref: "#/components/schemas/DeliveryAttemptList" } }
    })
    const propertiesOf = (name: string) =>
      Object.keys((document.components.schemas[name] as { readonly properties: object }).properties).sort()
    expect(body(one, "patch", "200")).toEqual({
      "application/json": { schema: { $ref: "#/components/schemas/Webhook" } }
    })
    expect(body(rotate, "post", "200")).toEqual({
      "application/json": { schema: { $ref: "#/components/schemas/RotatedWebhookSecret" } }
    })
    expect(propertiesOf("RotatedWebhookSecret")).toEqual(["previousSecretExpiresAt", "secret"])
    expect(propertiesOf("CreatedWebhook")).toEqual([
      "createdAt",
      "disabledAt",
      "disabledReason",
      "events",
      "id",
      "secret",
      "status",
      "url"
    ])
    expect(propertiesOf("Webhook")).toEqual([
      "createdAt",
      "disabledAt",
      "disabledReason",
      "events",
      "id",
      "status",
      "url"
    ])
    expect(document.components.schemas.UpdateWebhookRequest).toMatchObject({
      properties: { status: { anyOf: [{ type: "string", enum: ["enabled"] }] } },
      required: ["status"]
    })
    expect(document.components.schemas.WebhookStatus).toMatchObject({ enum: ["enabled", "disabled"] })
    expect(document.components.schemas.DeliveryFailureReason).toMatchObject({
      type: "string",
      pattern: "^(refused_address|dns_error|timeout|tls_error|connection_error|http_[1-9][0-9]{2})$"
    })
    expect(propertiesOf("DeliveryAttempt")).toEqual([
      "at",
      "attempt",
      "error",
      "eventId",
      "httpStatus",
      "status"
    ])
    expect(document.components.schemas.CreateWebhookRequest).toMatchObject({
      properties: {
        url: { type: "string" },
        events: { anyOf: [{ type: "array", minItems: 1 }, { type: "null" }] }
      },
      required: ["url"]
    })
    expect(document.components.schemas.WebhookList).toMatchObject({
      properties: { webhooks: { type: "array", items: { $ref: "#/components/schemas/Webhook" } } }
    })
  })

  it("names every component after its schema, not after its wire form", () => {
    expect(Object.keys(document.components.schemas).filter((name) => name.endsWith("Encoded"))).toEqual([])
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        "NotFound",
        "Unavailable",
        "Health",
        "Project",
        "DomainList",
        "Claim",
        "ClaimList",
        "OwnershipRecord"
      ])
    )
  })
})
