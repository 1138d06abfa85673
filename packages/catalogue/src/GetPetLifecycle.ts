/**
 * The deprecation and removal of `GET /pets/{petId}`: deprecated since version 1.0.0 was published
 * (2026-11-25), removed on 5 December 2030. A pure function of the current time; the effectful
 * variant reads Effect's `Clock`, so tests control it with `TestClock`.
 */
import { Clock, Effect } from "effect"

/** When the operation was deprecated: the publication of 1.0.0 (RFC 9745 `Deprecation`). */
export const getPetDeprecatedAt = new Date("2026-11-25T00:00:00Z")

/** When the operation stops working (RFC 8594 `Sunset`). */
export const getPetRemovedAt = new Date("2030-12-05T00:00:00Z")

export type GetPetAvailability = "deprecated" | "removed"

export const getPetAvailabilityAt = (nowMillis: number): GetPetAvailability =>
  nowMillis >= getPetRemovedAt.getTime() ? "removed" : "deprecated"

export const currentGetPetAvailability: Effect.Effect<GetPetAvailability> = Effect.map(
  Clock.currentTimeMillis,
  getPetAvailabilityAt
)
