import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import {
  AccountName,
  ApiKeyRecord,
  ApiKeyRepository,
  applyOperatorApiKey,
  hashApiKeyToken,
  issueApiKey
} from "../src/index.js"

/** Keys in a map, as a storage adapter keeps them: by hash, insert ignoring a hash already stored. */
const keysInMemory = () => {
  const byHash = new Map<string, ApiKeyRecord>()
  return {
    byHash,
    layer: Layer.succeed(ApiKeyRepository, {
      insert: (record) =>
        Effect.sync(() => {
          if (!byHash.has(record.hash)) byHash.set(record.hash, record)
        }),
      findByHash: (hash) => Effect.sync(() => Option.fromUndefinedOr(byHash.get(hash))),
      list: Effect.sync(() => [...byHash.values()]),
      revoke: (id, at) =>
        Effect.sync(() => {
          const found = [...byHash.values()].find((record) => record.id === id)
          if (found === undefined || Option.isSome(found.revokedAt)) return false
          byHash.set(found.hash, new ApiKeyRecord({ ...found, revokedAt: Option.some(at) }))
          return true
        })
    })
  }
}

const operator = AccountName.make("default")
const first = "operator-key-one-0123456789"
const second = "operator-key-two-0123456789"

const isActive = (store: ReturnType<typeof keysInMemory>, token: string) =>
  Effect.map(hashApiKeyToken(token), (hash) => {
    const found = store.byHash.get(hash)
    return found !== undefined && Option.isNone(found.revokedAt)
  })

describe("applyOperatorApiKey", () => {
  it.effect("makes the operator's key the only active key of its account, leaving others alone", () => {
    const store = keysInMemory()
    return Effect.gen(function* () {
      const other = yield* issueApiKey(AccountName.make("acme"))
      expect(yield* applyOperatorApiKey(operator, Option.some(first))).toStrictEqual({
        accepted: true,
        revoked: []
      })
      // Applied again: nothing changes.
      expect(yield* applyOperatorApiKey(operator, Option.some(first))).toStrictEqual({
        accepted: true,
        revoked: []
      })
      const changed = yield* applyOperatorApiKey(operator, Option.some(second))
      expect(changed.accepted).toBe(true)
      expect(changed.revoked.map((record) => record.hash)).toEqual([yield* hashApiKeyToken(first)])
      expect(yield* isActive(store, first)).toBe(false)
      expect(yield* isActive(store, second)).toBe(true)
      expect(yield* isActive(store, other.token)).toBe(true)
    }).pipe(Effect.provide(store.layer))
  })

  it.effect("without a key, revokes the account's keys; named again, a revoked key stays revoked", () => {
    const store = keysInMemory()
    return Effect.gen(function* () {
      yield* applyOperatorApiKey(operator, Option.some(first))
      const removed = yield* applyOperatorApiKey(operator, Option.none())
      expect(removed.accepted).toBe(false)
      expect(removed.revoked).toHaveLength(1)
      expect(yield* isActive(store, first)).toBe(false)
      expect(yield* applyOperatorApiKey(operator, Option.some(first))).toStrictEqual({
        accepted: false,
        revoked: []
      })
      expect(yield* isActive(store, first)).toBe(false)
    }).pipe(Effect.provide(store.layer))
  })
})
