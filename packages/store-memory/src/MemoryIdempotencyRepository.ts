/**
 * IdempotencyRepository in memory: reading, deciding and reserving happen in one atomic `Ref`
 * update, so concurrent requests with the same key see exactly one `Proceed`.
 */
import { decideIdempotency, type IdempotencyDecision, IdempotencyRepository } from "@petstore/catalogue"
import { Array as Arr, Effect, HashMap, Layer, Option, Ref } from "effect"
import { MemoryIdempotencyTable, type Reservations, scopeKey } from "./MemoryIdempotencyTable.js"

export const make: Effect.Effect<IdempotencyRepository["Service"], never, MemoryIdempotencyTable> =
  Effect.map(MemoryIdempotencyTable, (table) =>
    IdempotencyRepository.of({
      reserve: (scope, fingerprint, now) =>
        Ref.modify(table, (reservations): [IdempotencyDecision, Reservations] => {
          const key = scopeKey(scope)
          const decision = decideIdempotency(HashMap.get(reservations, key), fingerprint, now.getTime())
          return decision._tag === "Proceed"
            ? [
                decision,
                HashMap.set(reservations, key, { fingerprint, createdAt: now, petId: Option.none() })
              ]
            : [decision, reservations]
        }),
      release: (scope, reservedAt) =>
        Ref.modify(table, (reservations): [boolean, Reservations] => {
          const key = scopeKey(scope)
          const unfinished = HashMap.get(reservations, key).pipe(
            Option.filter(
              (record) => Option.isNone(record.petId) && record.createdAt.getTime() === reservedAt.getTime()
            )
          )
          return Option.isSome(unfinished) ? [true, HashMap.remove(reservations, key)] : [false, reservations]
        }),
      purge: (reservedUpTo, limit) =>
        Ref.modify(table, (reservations): [number, Reservations] => {
          const expired = Arr.take(
            HashMap.toEntries(reservations)
              .filter(([, record]) => record.createdAt.getTime() <= reservedUpTo.getTime())
              .map(([key]) => key),
            limit
          )
          return [expired.length, HashMap.removeMany(reservations, expired)]
        })
    })
  )

export const layer: Layer.Layer<IdempotencyRepository, never, MemoryIdempotencyTable> = Layer.effect(
  IdempotencyRepository,
  make
)
