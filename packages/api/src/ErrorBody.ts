/**
 * The one way an error body is made: `apiError(NotFound, "not_found", "no animal with id 7")`. The
 * status is never written again: it is the class's own, read from the `httpApiStatus` annotation that
 * `HttpApi` answers the class with, so a body's `status` and the response's status cannot disagree.
 * The code is checked against the class's codes.
 */
import { Schema } from "effect"
import type { ApiError } from "./ApiErrors.js"

/** A class of `ApiErrors`, as what makes its errors. */
export interface ApiErrorClass<E extends ApiError> extends Schema.Top {
  new (body: { readonly code: E["code"]; readonly message: string; readonly status: E["status"] }): E
  readonly prototype: E
}

/** Statuses already read: errors are made while requests are answered. */
const statuses = new WeakMap<Schema.Top, number>()

/**
 * The HTTP status `Class` answers with: its `httpApiStatus`, read as `HttpApi` reads it (an error
 * without one would answer 500; every class of `ApiErrors` has one).
 */
export const apiErrorStatus = (Class: Schema.Top & { readonly prototype: ApiError }): number => {
  let status = statuses.get(Class)
  if (status === undefined) {
    status = Schema.resolveAnnotations(Class)?.httpApiStatus ?? 500
    statuses.set(Class, status)
  }
  return status
}

/** An error of `Class` with `code` and `message`, and the class's status. */
export const apiError = <E extends ApiError>(Class: ApiErrorClass<E>, code: E["code"], message: string): E =>
  new Class({ code, message, status: apiErrorStatus(Class) as E["status"] })
