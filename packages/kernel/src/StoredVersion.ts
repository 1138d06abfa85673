/**
 * How many times a stored row (a domain, a claim) has been written. A write names the version it was
 * decided from and the store applies it only while that is still the stored one, bumping it: the
 * loser of a race is told so and decides again from the winner's state, instead of writing over it.
 */
import { Schema } from "effect"

export const StoredVersion = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).annotate({
  identifier: "StoredVersion"
})
export type StoredVersion = typeof StoredVersion.Type

/** What a row is written as first. */
export const firstVersion: StoredVersion = 0
