/**
 * `apiError` makes every error body of the service: its status is the one `HttpApi` answers the class
 * with, never written twice.
 */
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import * as OpenApi from "effect/http-api/OpenApi"
import * as ApiErrors from "../src/ApiErrors.js"
import { apiError, apiErrorStatus } from "../src/ErrorBody.js"
import { PetstoreApi } from "../src/PetstoreApi.js"

const errorClasses = {
  InvalidRequest: ApiErrors.InvalidRequest,
  Unauthorized: ApiErrors.Unauthorized,
  Forbidden: ApiErrors.Forbidden,
  NotFound: ApiErrors.NotFound,
  MethodNotAllowed: ApiErrors.MethodNotAllowed,
  Conflict: ApiErrors.Conflict,
  Gone: ApiErrors.Gone,
  PayloadTooLarge: ApiErrors.PayloadTooLarge,
  UnsupportedMediaType: ApiErrors.UnsupportedMediaType,
  IdempotencyKeyReused: ApiErrors.IdempotencyKeyReused,
  RateLimited: ApiErrors.RateLimited,
  ExpectationFailed: ApiErrors.ExpectationFailed,
  InternalError: ApiErrors.InternalError,
  Unavailable: ApiErrors.Unavailable
} as const

const encode = Schema.encodeSync(Schema.toCodecJson(ApiErrors.ApiError))

describe("apiError", () => {
  it("encodes exactly {code, message, status}, the status taken from the class", () => {
    expect(JSON.stringify(encode(apiError(ApiErrors.Conflict, "domain_in_use", "taken")))).toBe(
      '{"code":"domain_in_use","message":"taken","status":409}'
    )
    expect(encode(apiError(ApiErrors.Conflict, "domain_claimed", "claimed"))).toEqual({
      code: "domain_claimed",
      message: "claimed",
      status: 409
    })
    expect(encode(apiError(ApiErrors.Unavailable, "unavailable", "later"))).toEqual({
      code: "unavailable",
      message: "later",
      status: 503
    })
  })

  it("gives each class the status its responses are documented under", () => {
    const document = OpenApi.fromApi(PetstoreApi) as unknown as {
      readonly paths: Record<
        string,
        Record<string, { readonly responses: Record<string, { content?: unknown }> }>
      >
    }
    const documented = new Map<string, Set<number>>()
    for (const pathItem of Object.values(document.paths)) {
      for (const operation of Object.values(pathItem)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const reference = JSON.stringify(response.content ?? {}).match(/#\/components\/schemas\/(\w+)/)?.[1]
          if (reference === undefined || !(reference in errorClasses)) continue
          documented.set(reference, (documented.get(reference) ?? new Set()).add(Number(status)))
        }
      }
    }
    expect(documented.size).toBeGreaterThanOrEqual(10)
    for (const [name, statuses] of documented) {
      expect([...statuses], name).toEqual([apiErrorStatus(errorClasses[name as keyof typeof errorClasses])])
    }
  })

  it("agrees with each class's own status field", () => {
    for (const Class of Object.values(errorClasses)) {
      expect(apiErrorStatus(Class)).toBe(Class.fields.status.literal)
    }
  })
})
