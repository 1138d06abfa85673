/**
 * ApiKeyRepository in memory: records in insertion order; a hash already stored makes an insert a
 * no-op, as in SQL storage.
 */
import { ApiKeyRecord, ApiKeyRepository } from "@petstore/kernel"
import { Array as Arr, Effect, Layer, Option, Ref } from "effect"

export const make: Effect.Effect<ApiKeyRepository["Service"]> = Effect.map(
  Ref.make<ReadonlyArray<ApiKeyRecord>>([]),
  (records) =>
    ApiKeyRepository.of({
      insert: (record) =>
        Ref.update(records, (current) =>
          current.some((stored) => stored.hash === record.hash) ? current : [...current, record]
        ),
      findByHash: (hash) =>
        Effect.map(
          Ref.get(records),
          Arr.findFirst((stored) => stored.hash === hash)
        ),
      list: Ref.get(records),
      revoke: (id, at) =>
        Ref.modify(records, (current): [boolean, ReadonlyArray<ApiKeyRecord>] => {
          const index = current.findIndex((stored) => stored.id === id && Option.isNone(stored.revokedAt))
          const stored = current[index]
          if (stored === undefined) return [false, current]
          const revoked = new ApiKeyRecord({ ...stored, revokedAt: Option.some(at) })
          return [true, current.map((record, n) => (n === index ? revoked : record))]
        })
    })
)

export const layer: Layer.Layer<ApiKeyRepository> = Layer.effect(ApiKeyRepository, make)
