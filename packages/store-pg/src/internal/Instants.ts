/**
 * Instants between the rows and the domain: @effect/sql-pg hands a `timestamptz` over as a `Date`,
 * the domain's encoded forms spell an instant as ISO 8601 text. One conversion each way, an empty
 * column (null) staying null, the same as a column's schema for rows that are otherwise the domain's
 * encoded form, and the Clock's time as a `Date` for what a write stamps.
 */
import { Clock, Effect, Schema, SchemaTransformation } from "effect"

/** The ISO 8601 text of a column's instant; null stays null. */
export function isoText(date: Date): string
export function isoText(date: Date | null): string | null
export function isoText(date: Date | null): string | null {
  return date === null ? null : date.toISOString()
}

/** The `Date` a column takes for an instant's ISO 8601 text; null stays null. */
export function dateFromIso(iso: string): Date
export function dateFromIso(iso: string | null): Date | null
export function dateFromIso(iso: string | null): Date | null {
  return iso === null ? null : new Date(iso)
}

/** A `timestamptz` column's `Date` decoded into the domain's ISO 8601 text (and encoded back). */
export const IsoFromDate = Schema.Date.pipe(
  Schema.decodeTo(
    Schema.String,
    SchemaTransformation.transform({ decode: (date) => isoText(date), encode: (iso) => dateFromIso(iso) })
  )
)

/** The Clock's time as a `Date`: when a write happens (its events occurred then). */
export const clockDate: Effect.Effect<Date> = Effect.map(
  Clock.currentTimeMillis,
  (millis) => new Date(millis)
)
