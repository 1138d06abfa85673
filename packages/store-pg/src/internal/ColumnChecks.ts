/**
 * Checks the hand-written row mappers share, in the terms of the domain's schemas: what
 * `PositiveSafeInteger` (ids) and `Schema.Date` (instants) accept.
 */
import { maxSafeInteger } from "@petstore/catalogue"

/** What an id is, as `PositiveSafeInteger` words it. */
export const positiveSafeInteger = `an integer from 1 to ${maxSafeInteger}`

export const isPositiveSafeInteger = (value: number | undefined): value is number =>
  value !== undefined && Number.isSafeInteger(value) && value >= 1

export const isValidDate = (value: unknown): value is Date =>
  value instanceof Date && !Number.isNaN(value.getTime())
