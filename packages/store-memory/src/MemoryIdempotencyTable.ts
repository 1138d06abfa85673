/**
 * The idempotency reservations of the in-memory store, shared by the idempotency repository (which
 * reserves and releases) and the pet repository (which completes a reservation when it creates).
 */
import type { IdempotencyRecord, IdempotencyScope, PetId } from "@petstore/catalogue"
import { Context, HashMap, Layer, Option, Ref } from "effect"

export type Reservations = HashMap.HashMap<string, IdempotencyRecord>

export class MemoryIdempotencyTable extends Context.Service<MemoryIdempotencyTable, Ref.Ref<Reservations>>()(
  "@petstore/store-memory/MemoryIdempotencyTable"
) {}

export const layer: Layer.Layer<MemoryIdempotencyTable> = Layer.effect(
  MemoryIdempotencyTable,
  Ref.make<Reservations>(HashMap.empty())
)

/** One unambiguous string per (account, key) pair. */
export const scopeKey = (scope: IdempotencyScope): string => JSON.stringify([scope.account, scope.key])

/** Records the created animal on an unfinished reservation; a completed or missing one is left alone. */
export const completeReservation = (
  reservations: Reservations,
  scope: IdempotencyScope,
  petId: PetId
): Reservations =>
  HashMap.modify(reservations, scopeKey(scope), (record) =>
    Option.isNone(record.petId) ? { ...record, petId: Option.some(petId) } : record
  )
